# witness shim record builder: prints one complete JSON log line for one invocation.
# Runs with LC_ALL=C so lengths and escapes work on bytes; non-ASCII bytes pass through unchanged.
# Inputs arrive through ENVIRON (never -v, which would interpret backslashes); ARGV holds the argv.
#   __W_NAME, __W_CWD, __W_START (epoch ms, or empty: __W_BOOT_MS + __W_UPTIME),
#   __W_PID, __W_PPID, __W_ENV_RE, __W_LCALL_SET, __W_LCALL,
#   __W_STDIN (file | empty | none), __W_STDIN_FILE, __W_STDIN_SHA, __W_TAIL (closing fields),
#   __W_MAX (exit 3 without printing when the line would be longer; empty: no limit).

function esc(s,    c, ch) {
  if (index(s, "\\")) s = joined(s, "\\", "\\\\")
  if (index(s, "\"")) s = joined(s, "\"", "\\\"")
  if (index(s, "\n")) s = joined(s, "\n", "\\n")
  if (index(s, "\t")) s = joined(s, "\t", "\\t")
  if (index(s, "\r")) s = joined(s, "\r", "\\r")
  # The remaining control bytes are rare: one scan each, only when one is present.
  for (c = 1; c < 32; c++) {
    ch = sprintf("%c", c)
    if (index(s, ch)) s = joined(s, ch, sprintf("\\u%04x", c))
  }
  return s
}

# Splits on a literal one-byte separator and joins with its escape: no gsub replacement quirks.
function joined(s, sep, rep,    parts, n, i, out) {
  n = split(s, parts, sep == "\\" ? "\\\\" : sep)
  out = parts[1]
  for (i = 2; i <= n; i++) out = out rep parts[i]
  return out
}

function secret(name) {
  return toupper(name) ~ /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION_ID|AUTH/
}

# --- Redaction: the awk copy of core/redact.ts (a shim cannot start Node). The two are held to one
# table (core/test/fixtures/redaction/cases.json); JSON is recognised by its brackets alone here.

function is_token(v) { return v ~ /^<redacted:[0-9]+>$/ }

function span(a, b, n) { if (b > a) { NS++; SA[NS] = a; SZ[NS] = b; SN[NS] = n } }

# Every run of `re` in s at least `min` bytes long (exactly `take` bytes of it when take > 0), not
# preceded by a byte of class `pre`; when `post` is set, the run must not be followed by it.
function shapes(s, re, min, take, pre, post,    pos, st, len, rest) {
  pos = 1
  while (pos <= length(s)) {
    rest = substr(s, pos)
    if (!match(rest, re)) return
    st = pos + RSTART - 1; len = RLENGTH
    if (len >= min && (st == 1 || substr(s, st - 1, 1) !~ pre) && (post == "" || substr(s, st + len, 1) !~ post)) {
      span(st, st + (take > 0 ? take : len), -1)
      pos = st + len
    } else pos = st + 1
  }
}

function bearer(s,    low, pos, st, m, k, tok) {
  low = tolower(s); pos = 1
  while (pos <= length(low) && match(substr(low, pos), /(bearer|basic)[ \t]+[a-z0-9._~+\/=-]+/)) {
    st = pos + RSTART - 1; m = substr(low, st, RLENGTH)
    k = match(m, /[ \t]+/); tok = substr(m, k + RLENGTH)
    if ((st == 1 || substr(low, st - 1, 1) !~ /[a-z0-9_]/) && length(tok) >= 8)
      span(st + length(m) - length(tok), st + length(m), -1)
    pos = st + 1
  }
}

function url_password(s,    low, pos, st, m, k, c) {
  low = tolower(s); pos = 1
  while (pos <= length(low) && match(substr(low, pos), /[a-z][a-z0-9+.-]*:\/\/[^ \t\n\r\f\v:@\/]*:[^ \t\n\r\f\v@\/]+@/)) {
    st = pos + RSTART - 1; m = substr(low, st, RLENGTH)
    k = index(m, "://") + 3; c = index(substr(m, k), ":")
    span(st + k + c - 1, st + length(m) - 1, -1)
    pos = st + length(m)
  }
}

function rtrim(v) { sub(/[ \t\f\v]+$/, "", v); return v }

# Header (`Name: value`) and assignment (`NAME=value`) lines whose name is a secret's.
function lines(s,    n, parts, i, off, line, name, v, at, q) {
  n = split(s, parts, "\n"); off = 1
  for (i = 1; i <= n; i++) {
    line = parts[i]
    if (index(line, "\r")) line = substr(line, 1, index(line, "\r") - 1)
    if (match(line, /^[ \t]*[A-Za-z0-9_-]+[ \t]*:[ \t]*/)) {
      at = RLENGTH + 1; name = substr(line, 1, RLENGTH); gsub(/[ \t:]/, "", name)
      v = rtrim(substr(line, at))
      if (tolower(name) ~ /^(authorization|proxy-authorization|cookie|set-cookie)$/ || secret(name)) {
        if (match(tolower(v), /^(bearer|basic|digest)[ \t]+/)) { at += RLENGTH; v = substr(v, RLENGTH + 1) }
        span(off + at - 1, off + at - 1 + length(v), -1)
      }
    }
    if (match(line, /^[ \t]*export[ \t]+[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*/) || match(line, /^[ \t]*[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*/)) {
      at = RLENGTH + 1; name = substr(line, 1, RLENGTH)
      sub(/^[ \t]*(export[ \t]+)?/, "", name); sub(/[ \t]*=[ \t]*$/, "", name); sub(/^.*\./, "", name)
      v = rtrim(substr(line, at))
      q = substr(v, 1, 1)
      if (length(v) >= 2 && (q == "\"" || q == "'") && substr(v, length(v), 1) == q) { at++; v = substr(v, 2, length(v) - 2) }
      if (secret(name)) span(off + at - 1, off + at - 1 + length(v), -1)
    }
    off += length(parts[i]) + 1
  }
}

# The byte length of a JSON string's decoded content (raw: the text between its quotes).
function json_bytes(raw,    i, n, c, cp, lo) {
  n = 0
  for (i = 1; i <= length(raw); i++) {
    c = substr(raw, i, 1)
    if (c != "\\") { n++; continue }
    c = substr(raw, i + 1, 1)
    if (c != "u") { n++; i++; continue }
    cp = hex(substr(raw, i + 2, 4)); i += 5
    if (cp >= 55296 && cp < 56320 && substr(raw, i + 1, 2) == "\\u") {
      lo = hex(substr(raw, i + 3, 4))
      if (lo >= 56320 && lo < 57344) { n += 4; i += 6; continue }
    }
    n += cp < 128 ? 1 : cp < 2048 ? 2 : 3
  }
  return n
}

function hex(h,    i, v) {
  v = 0
  for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
  return v
}

# String values under secret-named keys of a JSON text, in place.
function json_fields(s,    t, i, j, c, nt, ts, te) {
  t = s; sub(/^[ \t\n\r]+/, "", t); sub(/[ \t\n\r]+$/, "", t)
  if (t !~ /^[[{]/ || t !~ /[]}]$/) return
  nt = 0; i = 1
  while ((j = index(substr(s, i), "\"")) > 0) {
    i += j - 1; nt++; ts[nt] = i
    for (i++; i <= length(s); i++) {
      c = substr(s, i, 1)
      if (c == "\\") i++
      else if (c == "\"") break
    }
    te[nt] = i; i++
  }
  for (j = 1; j < nt; j++) {
    if (substr(s, te[j] + 1, ts[j + 1] - te[j] - 1) !~ /^[ \t\n\r]*:[ \t\n\r]*$/) continue
    if (!secret(substr(s, ts[j] + 1, te[j] - ts[j] - 1))) continue
    span(ts[j + 1] + 1, te[j + 1], json_bytes(substr(s, ts[j + 1] + 1, te[j + 1] - ts[j + 1] - 1)))
  }
}

# A private key block, BEGIN to END (or to the end of a text cut short); a text cut before its
# BEGIN (an output's tail) loses the base64 lines above its first END.
function private_keys(s,    b1, e1, el, st, k, line, pos, bl, en) {
  e1 = 0; b1 = 0
  if (match(s, /-----END[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----/)) { e1 = RSTART; el = RLENGTH }
  if (match(s, /-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----/)) b1 = RSTART
  if (e1 > 0 && (b1 == 0 || b1 > e1)) {
    st = e1
    while (st > 1 && substr(s, st - 1, 1) == "\n") {
      k = st - 2
      while (k >= 1 && substr(s, k, 1) != "\n") k--
      line = substr(s, k + 1, st - 2 - k); sub(/\r$/, "", line)
      if (line !~ /^[A-Za-z0-9+\/=]+$/) break
      st = k + 1
    }
    span(st, e1 + el, -1)
  }
  pos = 1
  while (match(substr(s, pos), /-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----/)) {
    st = pos + RSTART - 1; bl = RLENGTH
    if (match(substr(s, st), /-----END[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----/)) en = st + RSTART - 1 + RLENGTH
    else en = length(s) + 1
    span(st, en, -1)
    pos = st + bl
  }
}

# The values of the secret-named variables this process holds (8 bytes or more), wherever they are.
function held_values(s,    i, v, pos, j) {
  for (i = 1; i <= NH; i++) {
    v = HV[i]; pos = 1
    while ((j = index(substr(s, pos), v)) > 0) { span(pos + j - 1, pos + j - 1 + length(v), -1); pos += j - 1 + length(v) }
  }
}

# Free text with each secret-shaped value replaced, once, by <redacted:N> (N its byte length).
function redact(s,    i, j, k, pos, np, PA, PZ, PN, keep, out, at, t) {
  if (s == "") return s
  NS = 0
  if (index(s, "sk-")) shapes(s, "sk-[A-Za-z0-9_-]+", 23, 0, "[A-Za-z0-9_-]", "")
  if (index(s, "gh")) shapes(s, "gh[pousr]_[A-Za-z0-9]+", 24, 0, "[A-Za-z0-9_]", "")
  if (index(s, "github_pat_")) shapes(s, "github_pat_[A-Za-z0-9_]+", 31, 0, "[A-Za-z0-9_]", "")
  if (index(s, "AKIA") || index(s, "ASIA")) shapes(s, "(AKIA|ASIA)[0-9A-Z]+", 20, 0, "[A-Za-z0-9]", "[a-z]")
  if (index(s, "xox")) shapes(s, "xox[abposr]-[A-Za-z0-9-]+", 15, 0, "[A-Za-z0-9]", "")
  if (index(s, "AIza")) shapes(s, "AIza[0-9A-Za-z_-]+", 39, 39, "[A-Za-z0-9_-]", "")
  if (index(s, "npm_")) shapes(s, "npm_[A-Za-z0-9]+", 40, 0, "[A-Za-z0-9_]", "")
  if (index(s, "glpat-")) shapes(s, "glpat-[A-Za-z0-9_-]+", 26, 0, "[A-Za-z0-9_-]", "")
  if (index(s, "k_live_") || index(s, "k_test_")) shapes(s, "[sr]k_(live|test)_[A-Za-z0-9]+", 24, 0, "[A-Za-z0-9_]", "")
  if (index(s, "eyJ")) shapes(s, "eyJ[A-Za-z0-9_-]+\\.eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+", 30, 0, "[A-Za-z0-9_-]", "")
  if (index(s, "PRIVATE KEY")) private_keys(s)
  if (NH > 0) held_values(s)
  if (tolower(s) ~ /bearer|basic/) bearer(s)
  if (index(s, "://")) url_password(s)
  if (index(s, ":") || index(s, "=")) lines(s)
  if (index(s, "\"")) json_fields(s)
  if (NS == 0) return s
  # Earlier redactions are kept as they are: a find inside one is dropped.
  np = 0; pos = 1
  while ((j = index(substr(s, pos), "<redacted:")) > 0) {
    at = pos + j - 1
    if (match(substr(s, at), /^<redacted:[0-9]+>/)) { np++; PA[np] = at; PZ[np] = at + RLENGTH }
    pos = at + 1
  }
  k = 0
  for (i = 1; i <= NS; i++) {
    keep = 1
    for (j = 1; j <= np; j++) if (SA[i] < PZ[j] && PA[j] < SZ[i]) keep = 0
    if (!keep) continue
    k++; SA[k] = SA[i]; SZ[k] = SZ[i]; SN[k] = SN[i]
  }
  # Sorted by start (longest first), then merged: overlapping finds are one secret.
  for (i = 2; i <= k; i++) for (j = i; j > 1 && (SA[j] < SA[j - 1] || (SA[j] == SA[j - 1] && SZ[j] > SZ[j - 1])); j--) {
    t = SA[j]; SA[j] = SA[j - 1]; SA[j - 1] = t
    t = SZ[j]; SZ[j] = SZ[j - 1]; SZ[j - 1] = t
    t = SN[j]; SN[j] = SN[j - 1]; SN[j - 1] = t
  }
  out = ""; at = 1; np = 0
  for (i = 1; i <= k; i++) {
    if (np > 0 && SA[i] < PZ[np]) {
      if (SZ[i] > PZ[np]) { PZ[np] = SZ[i]; PN[np] = -1 }
      else if (SA[i] != PA[np] || SZ[i] != PZ[np]) PN[np] = -1
      continue
    }
    np++; PA[np] = SA[i]; PZ[np] = SZ[i]; PN[np] = SN[i]
  }
  for (i = 1; i <= np; i++) {
    out = out substr(s, at, PA[i] - at) "<redacted:" (PN[i] >= 0 ? PN[i] : PZ[i] - PA[i]) ">"
    at = PZ[i]
  }
  return out substr(s, at)
}

function secret_flag(a,    w, n) {
  if (a !~ /^--?[A-Za-z][A-Za-z0-9_-]*$/) return 0
  n = split(a, w, /[-_]/)
  return tolower(w[n]) ~ /^(key|apikey|token|secret|password|passwd|credential|credentials|cookie)$/
}

function redact_arg(i,    a, k, f) {
  a = ARGV[i]
  if (i > 1 && secret_flag(ARGV[i - 1]) && substr(a, 1, 1) != "-") return is_token(a) ? a : "<redacted:" length(a) ">"
  if (match(a, /^--?[A-Za-z][A-Za-z0-9_-]*=/) && RLENGTH < length(a)) {
    f = substr(a, 1, RLENGTH - 1); k = substr(a, RLENGTH + 1)
    if (secret_flag(f)) return f "=" (is_token(k) ? k : "<redacted:" length(k) ">")
  }
  return redact(a)
}

# The bytes of a stdin copy (the shell appended one marker byte "x" to it).
function bytes_of(file,    line, n) {
  n = 0
  while ((getline line < file) > 0) n += length(line) + 1
  close(file)
  # Minus the newline counted after the last line, minus the marker byte.
  return n - 2
}

BEGIN {
  NH = 0
  for (hn in ENVIRON) if (secret(hn) && length(ENVIRON[hn]) >= 8 && !is_token(ENVIRON[hn])) HV[++NH] = ENVIRON[hn]
  out = "{\"v\":1,\"shim\":\"" esc(ENVIRON["__W_NAME"]) "\",\"argv\":["
  for (i = 1; i < ARGC; i++) out = out (i > 1 ? "," : "") "\"" esc(redact_arg(i)) "\""
  out = out "],\"cwd\":\"" esc(ENVIRON["__W_CWD"]) "\",\"env\":{"
  re = ENVIRON["__W_ENV_RE"]
  sep = ""
  for (k in ENVIRON) {
    if (k ~ /^__W_/ || re == "" || k !~ re) continue
    v = ENVIRON[k]
    if (k == "LC_ALL") {
      if (ENVIRON["__W_LCALL_SET"] == "") continue
      v = ENVIRON["__W_LCALL"]
    }
    v = secret(k) && !is_token(v) ? "<redacted:" length(v) ">" : redact(v)
    out = out sep "\"" esc(k) "\":\"" esc(v) "\""
    sep = ","
  }
  start = ENVIRON["__W_START"]
  if (start == "") start = sprintf("%.0f", ENVIRON["__W_BOOT_MS"] + ENVIRON["__W_UPTIME"] * 1000)
  out = out "},\"start\":" start ",\"pid\":" (ENVIRON["__W_PID"] + 0) ",\"ppid\":" (ENVIRON["__W_PPID"] + 0)
  mode = ENVIRON["__W_STDIN"]
  if (mode == "file") stdin = "{\"bytes\":" bytes_of(ENVIRON["__W_STDIN_FILE"]) ",\"sha256\":\"" ENVIRON["__W_STDIN_SHA"] "\"}"
  else if (mode == "empty") stdin = "{\"bytes\":0,\"sha256\":\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}"
  else stdin = "null"
  out = out ",\"stdin\":" stdin ENVIRON["__W_TAIL"]
  # Longer lines are appended under a lock by the caller; shorter ones land in one write(2).
  if (ENVIRON["__W_MAX"] != "" && length(out) >= ENVIRON["__W_MAX"] + 0) exit 3
  printf "%s\n", out
  exit 0
}

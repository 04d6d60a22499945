# witness shim record builder: prints one complete JSON log line for one invocation.
# Runs with LC_ALL=C so lengths and escapes work on bytes; non-ASCII bytes pass through unchanged.
# Inputs arrive through ENVIRON (never -v, which would interpret backslashes); ARGV holds the argv.
#   __W_NAME, __W_CWD_FILE, __W_START (epoch ms, or empty: __W_BOOT_MS + __W_UPTIME),
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

# The whole file, newlines included (the shell appended one marker byte "x" to stdin copies).
function slurp(file,    line, out, first) {
  out = ""; first = 1
  while ((getline line < file) > 0) { out = out (first ? "" : "\n") line; first = 0 }
  close(file)
  return out
}

function bytes_of(file,    line, n) {
  n = 0
  while ((getline line < file) > 0) n += length(line) + 1
  close(file)
  # Minus the newline counted after the last line, minus the marker byte.
  return n - 2
}

BEGIN {
  out = "{\"v\":1,\"shim\":\"" esc(ENVIRON["__W_NAME"]) "\",\"argv\":["
  for (i = 1; i < ARGC; i++) out = out (i > 1 ? "," : "") "\"" esc(ARGV[i]) "\""
  out = out "],\"cwd\":\"" esc(slurp(ENVIRON["__W_CWD_FILE"])) "\",\"env\":{"
  re = ENVIRON["__W_ENV_RE"]
  sep = ""
  for (k in ENVIRON) {
    if (k ~ /^__W_/ || re == "" || k !~ re) continue
    v = ENVIRON[k]
    if (k == "LC_ALL") {
      if (ENVIRON["__W_LCALL_SET"] == "") continue
      v = ENVIRON["__W_LCALL"]
    }
    if (secret(k)) v = "<redacted:" length(v) ">"
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

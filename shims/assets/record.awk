# witness shim record builder: prints the head of one JSON log record (argv, cwd, env, ids, time).
# Runs with LC_ALL=C so lengths and escapes work on bytes; non-ASCII bytes pass through unchanged.
# Inputs arrive through ENVIRON (never -v, which would interpret backslashes):
#   __W_NAME, __W_CWD, __W_START, __W_PID, __W_PPID, __W_ENV_RE, __W_LCALL_SET, __W_LCALL.

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
  n = split(s, parts, literal(sep))
  out = parts[1]
  for (i = 2; i <= n; i++) out = out rep parts[i]
  return out
}

function literal(sep) {
  if (sep == "\\") return "\\\\"
  if (sep == "\"") return "\""
  return sep
}

function secret(name,    up) {
  up = toupper(name)
  return up ~ /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION_ID|AUTH/
}

BEGIN {
  out = "{\"v\":1,\"shim\":\"" esc(ENVIRON["__W_NAME"]) "\",\"argv\":["
  for (i = 1; i < ARGC; i++) out = out (i > 1 ? "," : "") "\"" esc(ARGV[i]) "\""
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
    if (secret(k)) v = "<redacted:" length(v) ">"
    out = out sep "\"" esc(k) "\":\"" esc(v) "\""
    sep = ","
  }
  out = out "},\"start\":\"" esc(ENVIRON["__W_START"]) "\",\"pid\":" (ENVIRON["__W_PID"] + 0)
  out = out ",\"ppid\":" (ENVIRON["__W_PPID"] + 0)
  printf "%s", out
  exit
}

#!/bin/sh
# The loopback forwarder of a probe's network namespace, on socat: listens on 127.0.0.1:<port> inside
# and pipes each connection to the fake server's unix socket (path sockets cross network
# namespaces). Once listening it reports "ready <pid>" on the control socket, and it exits, with
# its listener, as soon as witness closes that connection (or dies). Run by netns-slot.sh, after
# loopback is up, as the namespace's first process.
# Usage: socat-forwarder.sh <socat> <port> <server-socket> <control-socket> <port in hex, 4 digits>
set -eu
socat=$1 port=$2 server=$3 control=$4 hex=$5
"$socat" TCP-LISTEN:"$port",bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:"$server" &
listener=$!
# Listening yet? This namespace's /proc/net/tcp, read with shell built-ins only (no process per try;
# the hex port comes as an argument, which spares the fork of a command substitution).
local_address="0100007F:$hex"
listening() {
  while read -r _ address _ state _; do
    if [ "$address" = "$local_address" ] && [ "$state" = 0A ]; then return 0; fi
  done </proc/net/tcp
  return 1
}
until listening; do
  if ! kill -0 "$listener" 2>/dev/null; then
    echo "socat-forwarder: socat stopped before it listened on 127.0.0.1:$port" >&2
    exit 1
  fi
done
# The control connection: "ready" goes one way; witness never writes, and its close (or death)
# ends socat's wait (-t: how long to wait for the other side after our own end of input).
# A here-document, not a pipe: the shell writes it without a process of its own.
"$socat" -t 2000000000 - UNIX-CONNECT:"$control" <<EOF || true
ready $$
EOF
kill "$listener" 2>/dev/null || true

#!/bin/sh
# Runs inside a fresh network namespace: bring loopback up, start the forwarder, then exec the CLI.
# Usage: entry.sh <ip> <node> <forwarder source> <port> <socket> <fifo> <log> -- <cli> [args...]
set -eu
ip=$1 node=$2 fwd=$3 port=$4 sock=$5 fifo=$6 log=$7
shift 7
if [ "${1:-}" = "--" ]; then shift; fi
"$ip" link set lo up
mkfifo "$fifo"
"$node" -e "$fwd" "$port" "$sock" </dev/null >"$fifo" 2>"$log" &
ready=""
IFS= read -r ready <"$fifo" || true
if [ "$ready" != "ready" ]; then
  echo "witness: the loopback forwarder did not start" >&2
  cat "$log" >&2 || true
  exit 125
fi
exec "$@"

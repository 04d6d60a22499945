#!/bin/sh
# First process of a probe's PID namespace: runs the CLI as its child (so the CLI is never PID 1,
# with PID 1's signal rules) and exits with its status. When this process dies, however it dies,
# the kernel ends every process left in the namespace.
# Usage: pid-init.sh [--sync-fs <dir>] <file> [args...]
# --sync-fs: start writing the filesystem of <dir> back to disk (the probe cell, freshly written)
# while the CLI starts, so the CLI's own first fsyncs do not wait for it; here rather than as a
# process of witness's own. Without `sync` on PATH the CLI does the flushing itself.
if [ "${1-}" = --sync-fs ]; then
  sync -f "$2" </dev/null >/dev/null 2>&1 &
  shift 2
fi
# An asynchronous command's stdin is /dev/null unless redirected: hand it the real one via fd 3.
exec 3<&0
"$@" <&3 3<&- &
child=$!
exec 3<&-
wait "$child"

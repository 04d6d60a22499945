#!/bin/sh
# First process of a probe's PID namespace: runs the CLI as its child (so the CLI is never PID 1,
# with PID 1's signal rules) and exits with its status. When this process dies, however it dies,
# the kernel ends every process left in the namespace.
# Usage: pid-init.sh [--sync-fs <dir>] [--cgroup <cgroup.procs>] <file> [args...]
# --sync-fs: start writing the filesystem of <dir> back to disk (the probe cell, freshly written)
# while the CLI starts, so the CLI's own first fsyncs do not wait for it; here rather than as a
# process of witness's own. Without `sync` on PATH the CLI does the flushing itself.
# --cgroup: join the spawn's memory cgroup (probes/isolation/memory-cgroup.ts) before starting the
# CLI, so the whole tree is born in it and its peak memory is the tree's (the flush stays out).
# When fd 3 is open it gets the CLI's resource use once the CLI has exited (see tree-use.sh).
# shellcheck source=/dev/null
. "${0%/*}/tree-use.sh"
if [ "${1-}" = --sync-fs ]; then
  sync -f "$2" </dev/null >/dev/null 2>&1 3>&- &
  shift 2
fi
if [ "${1-}" = --cgroup ]; then
  { echo 0 >"$2"; } 2>/dev/null
  shift 2
fi
tree_use_start
# An asynchronous command's stdin is /dev/null unless redirected: hand it the real one via fd 4.
exec 4<&0
"$@" <&4 4<&- 3>&- &
child=$!
exec 4<&-
wait "$child"
status=$?
tree_use_end
exit "$status"

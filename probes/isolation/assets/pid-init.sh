#!/bin/sh
# First process of a probe's PID namespace: runs the CLI as its child (so the CLI is never PID 1,
# with PID 1's signal rules) and exits with its status. When this process dies, however it dies,
# the kernel ends every process left in the namespace.
# Usage: pid-init.sh <file> [args...]
# An asynchronous command's stdin is /dev/null unless redirected: hand it the real one via fd 3.
exec 3<&0
"$@" <&3 3<&- &
child=$!
exec 3<&-
wait "$child"

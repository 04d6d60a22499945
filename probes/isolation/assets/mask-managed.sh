#!/bin/sh
# Hides a CLI's machine-wide managed directories (managed: mask), then runs the CLI.
# Runs inside the spawn's private mount namespace (unshare --mount-proc makes one, with private
# propagation): each directory gets an empty read-only tmpfs over it, seen by the CLI alone.
# Usage: mask-managed.sh <witness's mount namespace> <dir>... -- <file> [args...]
# Anything it cannot do stops the spawn with exit 125 before the CLI starts: never unmasked.
fail() {
  printf 'witness-mask: %s\n' "$1" >&2
  exit 125
}
host=$1
shift
own=$(readlink /proc/self/ns/mnt) || fail "cannot read this process's mount namespace"
# Mounting in witness's own namespace would hide the directory from the whole machine.
[ "$own" != "$host" ] || fail "not in a private mount namespace (still in $host)"
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  dir=$1
  shift
  err=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin mount -t tmpfs -o ro,nosuid,nodev,noexec,size=4k,mode=0755 witness-masked "$dir" 2>&1) ||
    fail "cannot hide $dir: $err"
  [ -z "$(ls -A "$dir")" ] || fail "$dir still shows files after the mount"
done
[ "$#" -gt 0 ] || fail "no -- before the command"
shift
exec "$@"

#!/bin/sh
# First process of a sandboxed probe's PID namespace, as root in a mount namespace of its own
# (unshare --pid --mount-proc). It builds the cell view (every mount listed in <fstab>, under
# <root>), makes it the root (pivot_root; the host's root is detached), and runs the CLI as its
# child: as <uid> on the host, uid 0 in a user namespace of its own (which owns none of the
# spawn's other namespaces: no mount, unmount or setns of them), through report.sh, which writes
# what holds to fd 3 before the CLI starts. It stays the namespace's first process (the CLI is
# never PID 1) and exits with the CLI's status; when it dies the kernel ends the namespace.
# Usage: sandbox.sh [--sync-fs <dir>] [--cgroup <cgroup.procs>] <fstab> <root> <uid> <cwd> <setpriv> <unshare> <report.sh>
#        <host path> <witness pid> [--mask <dir>]... -- <file> [args...]
# <host path>: one the view leaves out, which report.sh says whether it sees.
# --cgroup: join the spawn's memory cgroup once the view is mounted, before the host's root is
# detached (see pid-init.sh); pivot_root and umount are then in it too (a few hundred KB).
# Anything it cannot do stops the spawn with exit 125 before the CLI starts.
# fd 3 (witness's report pipe) gets report.sh's lines, then the CLI's resource use (tree-use.sh).
# shellcheck source=/dev/null
. "${0%/*}/tree-use.sh"
fail() {
  printf '%s%s\n' "${2:-witness-sandbox: }" "$1" >&2
  exit 125
}
if [ "${1-}" = --sync-fs ]; then
  # The cell was just written: start its writeback while the CLI starts (see pid-init.sh).
  sync -f "$2" </dev/null >/dev/null 2>&1 &
  shift 2
fi
cgroup=
if [ "${1-}" = --cgroup ]; then
  cgroup=$2
  shift 2
fi
fstab=$1 root=$2 uid=$3 cwd=$4 setpriv=$5 unshare=$6 report=$7 hidden=$8 wpid=$9
shift 9
sys=/usr/sbin:/usr/bin:/sbin:/bin
err=$(PATH=$sys mount -a -T "$fstab" 2>&1) || fail "cannot build the cell view: $err"
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  [ "$1" = --mask ] || fail "expected --mask or --, got $1"
  dir=$root$2
  shift 2
  for entry in "$dir"/* "$dir"/.[!.]* "$dir"/..?*; do
    if [ -e "$entry" ] || [ -L "$entry" ]; then fail "$dir still shows files after the mount" "witness-mask: "; fi
  done
done
[ "$#" -gt 0 ] || fail "no -- before the command"
shift
if [ -n "$cgroup" ]; then { echo 0 >"$cgroup"; } 2>/dev/null; fi
cd "$root" || fail "cannot enter $root"
PATH=$sys pivot_root . . || fail "pivot_root into $root failed"
# The host's root now lies over the view's: detach it, so nothing below can reach it.
PATH=$sys umount -l . || fail "cannot detach the host's root"
{ cd / && cd "$cwd"; } || fail "no $cwd in the cell view"
# The CLI runs in the background so that this shell stays PID 1: stdin is handed over on fd 4.
# The mounts above were reaped already: the use measured from here on is the CLI's.
tree_use_start
exec 4<&0
"$setpriv" --reuid="$uid" --regid="$uid" --clear-groups -- \
  "$unshare" --user --map-root-user -- /bin/sh "$report" "$hidden" "$wpid" -- "$@" <&4 4<&- &
child=$!
exec 4<&-
wait "$child"
status=$?
tree_use_end
exit "$status"

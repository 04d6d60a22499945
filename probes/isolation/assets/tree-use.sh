# shellcheck shell=sh
# Sourced by a PID namespace's first process (pid-init.sh, sandbox.sh): the resource use of what it
# starts and reaps, with shell built-ins only (no process of its own). As the namespace's init it
# reaps the CLI and every orphan the CLI leaves, so its children's totals in /proc/self/stat
# (cutime, cstime: the kernel's getrusage(RUSAGE_CHILDREN), in clock ticks) cover the CLI's whole
# process tree; /proc/uptime gives the wall time in hundredths of a second.
# tree_use_start before the CLI starts, tree_use_end after it was waited for: the end writes
#   tree_use: <cutime> <cstime> <uptime> at start, then the same at the end
# to fd 3, when fd 3 is open (witness's report pipe); otherwise it writes nothing.
tree_use_now() {
  read -r _up _ </proc/uptime || _up=-
  read -r _stat </proc/self/stat || _stat=
  # Fields after the command name, which ends at the last ')': state is 3rd, cutime 16th.
  set -f
  # shellcheck disable=SC2086 # split into the fields on purpose
  set -- ${_stat##*)}
  set +f
  _use="${14:--} ${15:--} $_up"
}
tree_use_start() {
  tree_use_now
  _use_start=$_use
}
tree_use_end() {
  tree_use_now
  { printf 'tree_use: %s %s\n' "$_use_start" "$_use" >&3; } 2>/dev/null
}

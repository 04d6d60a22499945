#!/bin/sh
# The last step before a sandboxed CLI starts, with the CLI's own credentials and namespaces: it
# writes to fd 3 what holds (its identity and capabilities as /proc/self/status shows them, its
# uid map, whether /proc is its PID namespace's, which network interfaces it has, whether a path
# witness holds on the host is there), closes fd 3, and becomes the CLI. witness reads the report;
# the CLI never holds fd 3. Only shell built-ins: no process of its own.
# Usage: report.sh <host path> <witness pid> -- <file> [args...]
# <host path>: one that exists on the host while the spawn runs and that the cell view leaves out.
hidden=$1 wpid=$2
shift 3
{
  while IFS= read -r line; do
    case $line in Uid:* | Gid:* | Cap* | NoNewPrivs:*) printf '%s\n' "$line" ;; esac
  done </proc/self/status
  read -r inner outer count </proc/self/uid_map && printf 'uid_map: %s %s %s\n' "$inner" "$outer" "$count"
  read -r pid _ </proc/self/stat && printf 'stat_pid: %s\n' "$pid"
  printf 'shell_pid: %s\n' "$$"
  # /proc/1's command line, its NULs dropped: the sandbox's own first process, or the host's init.
  IFS= read -r first </proc/1/cmdline
  printf 'pid1: %s\n' "$first"
  if [ -e "/proc/$wpid" ]; then printf 'witness_visible: yes\n'; else printf 'witness_visible: no\n'; fi
  {
    read -r _ && read -r _
    while IFS=: read -r name _; do printf 'net_if: %s\n' "${name#"${name%%[! ]*}"}"; done
  } </proc/net/dev
  if [ -e "$hidden" ]; then printf 'host_path_visible: yes\n'; else printf 'host_path_visible: no\n'; fi
} >&3 2>/dev/null
exec 3>&-
exec "$@"

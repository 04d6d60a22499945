#!/bin/sh
# A two-step runner, as shell scripts ship them: Claude Code first plans (plan mode: nothing is
# written), then acts with file edits accepted. Each step is its own `claude -p` run, the task on
# its stdin. Under witness the CLI is the shim offered in WITNESS_CLI_CLAUDE_CODE (and first on
# PATH); anywhere else it is the claude on PATH.
set -eu
claude="${WITNESS_CLI_CLAUDE_CODE:-claude}"
task="Do the steps."
for mode in plan acceptEdits; do
  printf '%s\n' "$task" | "$claude" -p --setting-sources project --permission-mode "$mode" --output-format json
  echo
done

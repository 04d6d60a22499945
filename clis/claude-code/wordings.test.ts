import { describe, expect, it } from "vitest";

import { CODEX_APPROVAL_WORDINGS, CODEX_SANDBOX_WORDINGS } from "../codex/wordings.js";
import { CLAUDE_WORDINGS, claudeWording } from "./wordings.js";

const compareVersions = (a: string, b: string): number => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i += 1) if (x?.[i] !== y?.[i]) return (x?.[i] ?? 0) - (y?.[i] ?? 0);
  return 0;
};

// The tool_result text each phrasing was recorded with (paths shortened).
const EXAMPLES: Record<string, string> = {
  "write-not-granted":
    "Claude requested permissions to write to /w/.witness-sentinels/W, but you haven't granted it yet.",
  "use-not-granted": "Claude requested permissions to use Bash, but you haven't granted it yet.",
  "command-requires-approval": "This command requires approval",
  "blocked-outside-working-dirs":
    "touch in '/w/B' was blocked. For security, Claude Code may only create or modify files in the allowed working directories for this session: '/w'.",
  "needs-approval-inside":
    "touch in '/w/B' needs approval. The path is inside the working directories for this session ('/w'), and Claude Code asks before a shell command creates, changes or removes files there.",
  "needs-approval-outside":
    "touch in '/c/B' needs approval. The path is outside the working directories for this session ('/w'). Allowing runs the command as written.",
  "plan-mode-write": "Cannot write to /w/W while in plan mode.",
  "auto-mode-has-been-denied":
    "Permission for this action has been denied. Reason: blocked. If you have other tasks that don't depend on this action, continue working on those.",
  "auto-mode-classifier":
    "Permission for this action was denied by the Claude Code auto mode classifier. Reason: blocked.",
  "no-such-tool-disabled":
    "<tool_use_error>Error: No such tool available: Bash. Bash is disabled for this session, in subagents as well as here.</tool_use_error>",
  "no-such-tool-not-enabled":
    "<tool_use_error>Error: No such tool available: Bash. Bash exists but is not enabled in this context. Use one of the available tools instead.</tool_use_error>",
  "no-such-tool": "<tool_use_error>Error: No such tool available: Write</tool_use_error>",
  "deny-rule": "Permission to use Bash with command touch /w/x has been denied.",
};

describe("the Claude Code wording table", () => {
  it.each(CLAUDE_WORDINGS.map((row) => [row.id, row] as const))(
    "%s matches its recorded text first",
    (id, row) => {
      const example = EXAMPLES[id];
      expect(example, `an example for ${id}`).toBeDefined();
      expect(claudeWording(example ?? "")).toBe(row);
    },
  );

  it("lists, per row, the versions it was seen on in ascending order, each once", () => {
    for (const row of [...CLAUDE_WORDINGS, ...CODEX_SANDBOX_WORDINGS, ...CODEX_APPROVAL_WORDINGS]) {
      expect(row.seenOn.length, `${row.id}: a recorded run's version`).toBeGreaterThan(0);
      expect([...row.seenOn].sort(compareVersions), row.id).toEqual(row.seenOn);
      expect(new Set(row.seenOn).size, row.id).toBe(row.seenOn.length);
    }
  });

  it("has no row for a success or a plain command error", () => {
    expect(claudeWording("File created successfully at: /w/W")).toBeNull();
    expect(claudeWording("Exit code 3\nout")).toBeNull();
  });
});

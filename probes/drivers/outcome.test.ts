import { describe, expect, it } from "vitest";

import { codexExitCode } from "../../clis/codex/wordings.js";
import { driverFor } from "./index.js";

const codexOutput = (exit: number, output: string) =>
  `Script completed\nWall time 0.1 seconds\nOutput:\n${JSON.stringify({ exit_code: exit, output })}`;

describe("tool call outcomes", () => {
  it.each([
    ["claude-code", { isError: false, text: "(Bash completed with no output)" }, "accept", "ran"],
    [
      "claude-code",
      {
        isError: true,
        text: "<tool_use_error>Error: No such tool available: Bash.</tool_use_error>",
      },
      null,
      "no-such-tool",
    ],
    [
      "claude-code",
      {
        isError: true,
        text: "touch in '/x' needs approval. The path is outside the working directories",
      },
      "reject",
      "denied",
    ],
    ["claude-code", { isError: true, text: "This command requires approval" }, null, "denied"],
    [
      "claude-code",
      { isError: true, text: "Permission to use Bash with command x has been denied." },
      null,
      "denied",
    ],
    ["claude-code", { isError: true, text: "Exit code 1\nls: cannot access" }, "accept", "error"],
    ["claude-code", null, "reject", "denied"],
    ["claude-code", null, null, "unknown"],
    ["codex", { isError: false, text: codexOutput(0, "") }, null, "ran"],
    [
      "codex",
      { isError: false, text: codexOutput(1, "touch: cannot touch '/s': Read-only file system\n") },
      null,
      "denied",
    ],
    [
      "codex",
      { isError: false, text: codexOutput(2, "ls: cannot access 'x': No such file or directory") },
      null,
      "error",
    ],
    ["codex", { isError: false, text: "unsupported call: frobnicate" }, null, "no-such-tool"],
    // Older wordings, each as the version that printed it sent it back.
    [
      "claude-code",
      {
        isError: true,
        text: "Claude requested permissions to use Bash, but you haven't granted it yet.",
      },
      null,
      "denied",
    ],
    [
      "claude-code",
      { isError: true, text: "Cannot write to /w/x while in plan mode." },
      null,
      "denied",
    ],
    [
      "claude-code",
      {
        isError: true,
        text: "Permission for this action was denied by the Claude Code auto mode classifier. Reason: x.",
      },
      null,
      "denied",
    ],
    [
      "codex",
      { isError: false, text: "Exit code: 0\nWall time: 0 seconds\nOutput:\n" },
      null,
      "ran",
    ],
    [
      "codex",
      { isError: false, text: "Exit code: 3\nWall time: 0 seconds\nOutput:\nout-marker\n" },
      null,
      "error",
    ],
    [
      "codex",
      {
        isError: false,
        text: "Exit code: 1\nWall time: 0 seconds\nOutput:\ntouch: cannot touch '/s': Permission denied\n",
      },
      null,
      "denied",
    ],
    [
      "codex",
      {
        isError: false,
        text: "Chunk ID: ab\nWall time: 0.05 seconds\nProcess exited with code 3\nOriginal token count: 3\nOutput:\nout\n",
      },
      null,
      "error",
    ],
    ["codex", { isError: false, text: "unsupported custom tool call: exec" }, null, "no-such-tool"],
  ] as const)("%s result %j with decision %s is %s", (cli, result, decision, expected) => {
    const recorded = decision === null ? null : { decision };
    expect(driverFor(cli).classify({ wire: result, recorded }).outcome).toBe(expected);
  });

  it("reads the exit code out of Codex's exec output", () => {
    const code = (text: string) => codexExitCode(text.split("\n"))?.code ?? null;
    expect(code(codexOutput(7, "x"))).toBe(7);
    expect(code("Exit code: 3\nWall time: 0 seconds\nOutput:\n")).toBe(3);
    expect(code("Chunk ID: a\nProcess exited with code 0\nOutput:\n")).toBe(0);
    expect(code("no json")).toBeNull();
  });
});

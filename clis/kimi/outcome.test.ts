import { describe, expect, it } from "vitest";

import { classifyKimiCall } from "./outcome.js";

// Result texts Kimi sent back in the hand research runs (0.20.0 and 2.1.0, NOTES.md Kimi §5).
const TAG = "<system>ERROR: Tool execution failed.</system>";
const rows: [string, string, string][] = [
  ["2.1.0 shell ran", "Wall time: 0.031 seconds\nCommand executed successfully.", "ran"],
  ["0.20.0 shell ran", "Command executed successfully.", "ran"],
  ["write ran", "Wrote 1 bytes to /c/sentinels/WRITE_RAN", "ran"],
  [
    "2.1.0 exit 3",
    `Wall time: 0.01 seconds\n${TAG}\nout\nerr\nCommand failed with exit code: 3.`,
    "error",
  ],
  ["unknown tool", `${TAG}\nTool "NoSuchTool" not found`, "no-such-tool"],
  [
    "0.20.0 deny rule",
    `${TAG}\nTool "Bash" was denied by permission rule. Reason: witness deny`,
    "denied",
  ],
  [
    "2.1.0 rejected ask",
    `${TAG}\nTool "Bash" was not run because the user rejected the approval request.`,
    "denied",
  ],
  ["a hook's refusal (its own words)", `${TAG}\nwitness-hook-deny`, "error"],
];

describe("Kimi Code's classifier", () => {
  it.each(rows)("%s", (_name, text, outcome) => {
    expect(classifyKimiCall({ wire: { isError: false, text }, recorded: null }).outcome).toBe(
      outcome,
    );
  });

  it("reads the session's record when the wire has nothing, and says unknown without either", () => {
    const recorded = { result: { isError: true, text: `${TAG}\nTool "X" not found` } };
    expect(classifyKimiCall({ wire: null, recorded }).outcome).toBe("no-such-tool");
    expect(classifyKimiCall({ wire: null, recorded: null }).outcome).toBe("unknown");
  });
});

import { describe, expect, it } from "vitest";

import { classifyCopilotCall, COPILOT_DENIED_WORDINGS, copilotExitCode } from "./outcome.js";

const onWire = (text: string) =>
  classifyCopilotCall({ wire: { isError: false, text }, recorded: null });

describe("classifyCopilotCall", () => {
  // The tool results of the recorded runs (transcripts/test/fixtures/copilot-*), paths shortened.
  it.each([
    [
      "Permission denied because no interactive user response was available. Retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.",
      "denied",
    ],
    ["Permission denied and could not request permission from user", "denied"],
    ["\n<shellId: 0 completed with exit code 0>", "ran"],
    ["out\nexit\n<shellId: 1 completed with exit code 3>", "error"],
    ["Created file /w/W with 1 characters", "ran"],
  ] as const)("%j on the wire is %s", (text, outcome) => {
    expect(onWire(text).outcome).toBe(outcome);
  });

  it("a recorded denial wins over a result that reads as ran", () => {
    const judged = classifyCopilotCall({
      wire: { isError: false, text: "\n<shellId: 0 completed with exit code 0>" },
      recorded: { decision: "denied-no-approval-rule-and-could-not-request-from-user" },
    });
    expect(judged.outcome).toBe("denied");
  });

  it("the session's own exit code decides over the text's, and success false is an error", () => {
    const recorded = { exitCode: 2, result: { isError: false, text: "" } };
    expect(classifyCopilotCall({ wire: null, recorded }).outcome).toBe("error");
    const failed = { status: "failure", result: { isError: true, text: "it broke" } };
    expect(classifyCopilotCall({ wire: null, recorded: failed }).outcome).toBe("error");
    expect(classifyCopilotCall({ wire: null, recorded: { errorType: "denied" } }).outcome).toBe(
      "denied",
    );
  });

  it("reads the shell's exit line, and nothing else as one", () => {
    expect(copilotExitCode("x\n<shellId: 7 completed with exit code 127>")).toBe(127);
    expect(copilotExitCode("exit code 3")).toBeNull();
  });

  it("lists each refusal wording with the version a recorded run showed it on", () => {
    for (const row of COPILOT_DENIED_WORDINGS) expect(row.seenOn.length, row.id).toBeGreaterThan(0);
  });
});

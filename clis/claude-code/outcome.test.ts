import { describe, expect, it } from "vitest";

import type { RecordedCall } from "../outcome.js";
import { classifyClaudeCall } from "./outcome.js";

const NO_SUCH_BASH = "<tool_use_error>Error: No such tool available: Bash</tool_use_error>";

describe("classifyClaudeCall on the session's record", () => {
  const judge = (recorded: RecordedCall, isError = true, text = "") =>
    classifyClaudeCall({ wire: null, recorded: { ...recorded, result: { isError, text } } });

  it.each([
    [{ decision: "reject" }, true, "", "denied", "permissionDecision reject"],
    [{ denialKind: "automode-blocked" }, true, "", "denied", "toolDenialKind automode-blocked"],
    [
      {},
      true,
      "Claude requested permissions to write to /w/x, but you haven't granted it yet.",
      "denied",
      "wording write-not-granted",
    ],
    [{}, true, "This command requires approval", "denied", "wording command-requires-approval"],
    [{}, true, NO_SUCH_BASH, "no-such-tool", "wording no-such-tool"],
    [{}, true, "Exit code 3\nout", "error", "is_error, no known refusal wording"],
    [{ decision: "accept" }, false, "ok", "ran", "permissionDecision accept"],
    [{}, false, "", "ran", "result without is_error"],
  ] as const)("%j, is_error %j, %j is %s", (recorded, isError, text, outcome, because) => {
    expect(judge(recorded, isError, text)).toEqual({ outcome, because });
  });

  it("takes the record's own decision over any wording", () => {
    expect(judge({ denialKind: "user-rejected" }, true, NO_SUCH_BASH).outcome).toBe("denied");
  });
});

describe("classifyClaudeCall on a probe's evidence (the wire result and the recorded decision)", () => {
  it("a recorded reject wins over a result that reads as ran", () => {
    const wire = { isError: false, text: "File created successfully" };
    const judged = classifyClaudeCall({ wire, recorded: { decision: "reject" } });
    expect(judged.outcome).toBe("denied");
  });

  it("a recorded reject with no result on the wire is still a refusal", () => {
    expect(classifyClaudeCall({ wire: null, recorded: { decision: "reject" } }).outcome).toBe(
      "denied",
    );
  });

  it("the wire's result is judged by the wording table when nothing was recorded", () => {
    const text = "Claude requested permissions to write to /w/x, but you haven't granted it yet.";
    expect(classifyClaudeCall({ wire: { isError: true, text }, recorded: null }).outcome).toBe(
      "denied",
    );
  });

  it("neither a result nor a record is unknown", () => {
    expect(classifyClaudeCall({ wire: null, recorded: null }).outcome).toBe("unknown");
  });
});

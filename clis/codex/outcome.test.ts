import { describe, expect, it } from "vitest";

import { classifyCodexCall } from "./outcome.js";
import { codexSandboxWording } from "./wordings.js";

const onWire = (text: string, isError = false) =>
  classifyCodexCall({ wire: { isError, text }, recorded: null }).outcome;
const recorded = (text: string, exitCode: number | null) =>
  classifyCodexCall({ wire: null, recorded: { exitCode, result: { isError: false, text } } })
    .outcome;

describe("classifyCodexCall", () => {
  it.each([
    ["unsupported call: shell", null, "no-such-tool"],
    ["unsupported custom tool call: exec", null, "no-such-tool"],
    ["touch: cannot touch 'x': Read-only file system", 1, "denied"],
    ["touch: cannot touch 'x': Permission denied", 1, "denied"],
    [
      'exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { … }))" }',
      null,
      "denied",
    ],
    ["out", 3, "error"],
    ["", 0, "ran"],
    ["all good", null, "ran"],
    ["command failed", null, "error"],
  ] as const)("%j with a recorded exit %j is %s", (text, exit, outcome) => {
    expect(recorded(text, exit)).toBe(outcome);
  });

  it("exit code 0 means ran even when the output has refusal words in it", () => {
    expect(onWire('Output:\n{"exit_code":0,"output":"Permission denied was printed"}')).toBe("ran");
  });

  it("reads the exit code from the exec tool's JSON line on the wire (0.144+)", () => {
    const text = 'Script completed\nOutput:\n\n{"chunk_id":"c","exit_code":3,"output":"out\\n"}';
    expect(onWire(text)).toBe("error");
  });

  it("does not read an exit code that is only quoted inside the command's output", () => {
    expect(onWire('{"output":"printed \\"exit_code\\": 0"}\nsomething failed')).toBe("error");
  });

  it("an approval-policy rejection is a refusal, not a run", () => {
    expect(onWire("patch rejected: rejected by user approval settings")).toBe("denied");
  });

  it("an error result without an exit code is an error", () => {
    expect(onWire("it stopped", true)).toBe("error");
  });

  it("a sandbox refusal reported by a command event decides when the output does not say", () => {
    const judged = classifyCodexCall({
      wire: null,
      recorded: { refusal: "read-only-file-system", result: { isError: false, text: "" } },
    });
    expect(judged).toEqual({ outcome: "denied", because: "refusal wording read-only-file-system" });
  });

  it("names the wording that matched", () => {
    expect(codexSandboxWording("x: Read-only file system")?.id).toBe("read-only-file-system");
  });
});

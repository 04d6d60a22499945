import { describe, expect, it } from "vitest";

import { classifyClineCall, clineExitCode, clineSuccess } from "./outcome.js";

const onWire = (text: string, isError = false) =>
  classifyClineCall({ wire: { isError, text }, recorded: null });

describe("classifyClineCall", () => {
  // The tool results of the hand runs on 3.0.65 (/work/research/cline/out/*), paths shortened.
  it.each([
    ['[{"query":"touch /s/RAN","result":"","success":true}]', "ran"],
    [
      '{"query":"edit:/s/WROTE","result":"File created successfully at: /s/WROTE","success":true}',
      "ran",
    ],
    [
      '[{"query":"echo out; exit 3","result":"[Command exited with code 3]\\nout\\n","error":"Command exited with code 3","success":false}]',
      "error",
    ],
    [
      '{"error":"Tool \\"run_commands\\" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding."}',
      "denied",
    ],
    [
      '{"error":"Command not executed: `touch` can modify files, and file modifications are blocked in plan mode. You are in PLAN MODE"}',
      "denied",
    ],
    [
      '{"error":"Tool call editor was rejected before execution: AI_NoSuchToolError: Model tried to call unavailable tool \'editor\'."}',
      "no-such-tool",
    ],
  ] as const)("%j on the wire is %s", (text, outcome) => {
    expect(onWire(text, text.startsWith('{"error"')).outcome).toBe(outcome);
  });

  it("an error result with no wording it knows is an error, not a denial", () => {
    expect(onWire('{"error":"disk full"}', true)).toEqual({
      outcome: "error",
      because: "error result",
    });
  });

  it("reads success over every command of a batch, and a failed command's exit code", () => {
    expect(clineSuccess('[{"success":true},{"success":false}]')).toBe(false);
    expect(clineSuccess("not json")).toBeNull();
    expect(clineExitCode("Command exited with code 3")).toBe(3);
    expect(onWire('[{"error":"Command exited with code 3","success":false}]').because).toBe(
      "exit code 3",
    );
  });

  it("judges the session's own record when nothing came over the wire", () => {
    const recorded = { result: { isError: true, text: "requires approval in a TTY session" } };
    expect(classifyClineCall({ wire: null, recorded }).outcome).toBe("denied");
    expect(classifyClineCall({ wire: null, recorded: null }).outcome).toBe("unknown");
  });
});

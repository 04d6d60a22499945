import { describe, expect, it } from "vitest";

import { marker, observation, protocolText } from "../test/support/observations.js";
import { agreementResult, agreesWithSchema } from "./agreement.js";
import { parseProtocol } from "./load.js";

const FILE = "docs/prereg/0001-demo.yaml";

// The demo protocol with a second arm whose last predicate is `agreement` (YAML flow mapping).
function twoArms(agreement: string): string {
  return `${protocolText()}  - id: replay
    description: the same launch, replayed
    fixture:
      files:
        - { at: workspace, path: CLAUDE.md, content: "{{marker:A}}" }
    launch:
      argv: ["-p", "hi"]
    expect:
      - { kind: marker-present, marker: A }
      - ${agreement}
`;
}

describe("agrees-with", () => {
  it("passes when every named fact is the same, and names each fact that differs", () => {
    const p = agreesWithSchema.parse({
      kind: "agrees-with",
      arm: "live",
      on: ["markers", "exit-code"],
    });
    const seen = observation({ markers: [marker("A", ["system"]), marker("B", [])] });
    expect(agreementResult(p, seen, observation({ markers: [marker("A", ["messages"])] }))).toEqual(
      {
        pass: true,
        explanation: "same markers, exit-code as live",
      },
    );
    const other = observation({ markers: [marker("B", ["system"])], exitCode: 1 });
    expect(agreementResult(p, seen, other)).toEqual({
      pass: false,
      explanation: 'markers: ["A"] here, ["B"] in live; exit-code: 0 here, 1 in live',
    });
  });

  it("loads when it names another arm of the protocol", () => {
    const protocol = parseProtocol(
      twoArms("{ kind: agrees-with, arm: only, on: [markers, tool-calls] }"),
      FILE,
    );
    expect(protocol.arms[1]?.expect[1]).toEqual({
      kind: "agrees-with",
      arm: "only",
      on: ["markers", "tool-calls"],
    });
  });

  it.each([
    [
      "{ kind: agrees-with, arm: live, on: [markers] }",
      "arms.1.expect.1.arm",
      'expected another arm of this protocol (only); got "live"',
    ],
    ["{ kind: agrees-with, arm: replay, on: [markers] }", "arms.1.expect.1.arm", 'got "replay"'],
    ["{ kind: agrees-with, arm: only, on: [] }", "arms.1.expect.1.on", "expected one fact or more"],
    [
      "{ kind: agrees-with, arm: only, on: [markers, markers] }",
      "arms.1.expect.1.on",
      "expected each fact once",
    ],
    ["{ kind: agrees-with, arm: only, on: [stdout] }", "arms.1.expect.1.on.0", "markers"],
  ])("refuses %s, naming the field", (agreement, field, message) => {
    expect(() => parseProtocol(twoArms(agreement), FILE)).toThrow(field);
    expect(() => parseProtocol(twoArms(agreement), FILE)).toThrow(message);
  });
});

import { describe, expect, it } from "vitest";

import type { MeasurementRecord } from "../measurements/record.js";
import { demoRecord, marker, observation } from "../test/support/observations.js";
import { questionsOf } from "./evidence-questions.js";

const spawn = (seen: boolean, index: number) => ({
  index,
  status: "as-expected" as const,
  faults: [],
  predicates: [],
  observation: observation({
    markers: [marker("HOME", seen ? ["system"] : []), marker("PROJECT", [])],
    toolCalls: [
      {
        id: "t",
        name: "Bash",
        input: {},
        outcome: "ran",
        resultText: "",
        permissionDecision: null,
      },
    ],
    sentinels: [{ name: "S1", path: "ws/s1", created: index === 1 }],
  }),
});

function record(version: string): MeasurementRecord {
  return demoRecord(
    version,
    [
      {
        id: "bare",
        description: "no flags",
        verdict: "inconclusive",
        reasons: [],
        tally: [],
        spawns: [spawn(true, 1), spawn(true, 2), spawn(false, 3)],
      },
    ],
    {
      protocol: { title: "Does HOME's CLAUDE.md reach the model?", hypothesis: "It does." },
      spawnsPerArm: 3,
    },
  );
}

describe("the questions the evidence page leads with", () => {
  it("says per arm and version which planted markers reached the model in how many spawns, which stayed out, and what ran", () => {
    const [q] = questionsOf([record("2.1.332"), record("2.1.90")]);
    expect(q).toMatchObject({ protocol: "0001", cli: "claude-code", hypothesis: "It does." });
    expect(q?.arms[0]?.answers.map((a) => a.version)).toEqual(["2.1.90", "2.1.332"]);
    expect(q?.arms[0]?.answers[0]).toEqual({
      version: "2.1.90",
      verdict: "inconclusive",
      reached: ["HOME 2/3"],
      keptOut: ["PROJECT"],
      ran: ["Bash ran 3/3"],
      created: ["S1"],
    });
  });
});

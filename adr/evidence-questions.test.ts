import { describe, expect, it } from "vitest";

import type { MeasurementRecord } from "../measurements/record.js";
import { marker, observation } from "../test/support/observations.js";
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
  return {
    schema: "witness.record/1",
    protocol: {
      id: "0001",
      slug: "demo",
      title: "Does HOME's CLAUDE.md reach the model?",
      adr: "0001",
      hypothesis: "It does.",
      file: "docs/prereg/0001-demo.yaml",
      canonicalHash: "sha256:l",
      bytesHash: "sha256:b",
      lockCommit: "c",
      lockedAt: "2026-01-01T00:00:00.000Z",
    },
    cli: { name: "claude-code", version, versionsRun: [version] },
    machine: { platform: "linux", release: "6", arch: "x64", node: "v20", cpus: 2 },
    isolation: ["netns"],
    startedAt: "2026-01-02T00:00:00.000Z",
    finishedAt: "2026-01-02T00:00:01.000Z",
    spawnsPerArm: 3,
    verdictRule: "",
    arms: [
      {
        id: "bare",
        description: "no flags",
        verdict: "inconclusive",
        reasons: [],
        tally: [],
        spawns: [spawn(true, 1), spawn(true, 2), spawn(false, 3)],
      },
    ],
    verdict: "inconclusive",
  };
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

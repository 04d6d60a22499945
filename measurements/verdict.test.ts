import { describe, expect, it } from "vitest";

import { predicateSchema } from "../prereg/predicate.js";
import { observation } from "../test/support/observations.js";
import type { SpawnRecord } from "./record.js";
import { armVerdict, countedFaults, overallVerdict, spawnStatus, tally } from "./verdict.js";

function spawn(index: number, passes: boolean[], faults: string[] = []): SpawnRecord {
  return {
    index,
    status: spawnStatus(faults, passes),
    faults,
    observation: null,
    predicates: passes.map((pass, i) => ({
      label: `p${i}`,
      pass,
      explanation: pass ? "held" : "did not hold",
    })),
  };
}

describe("spawnStatus", () => {
  it.each([
    [[], [true, true], "as-expected"],
    [[], [true, false], "contrary"],
    [[], [false, false], "contrary"],
    [["no-request"], [true, true], "fault"],
  ] as const)("faults %j with passes %j is %s", (faults, passes, status) => {
    expect(spawnStatus(faults, passes)).toBe(status);
  });
});

describe("countedFaults", () => {
  const rejectedArgv = { flag: "--dangerously-skip-permissions", message: "… root/sudo …" };
  const line = "claude-code 2.1.332 rejected `--dangerously-skip-permissions`: … root/sudo …";
  const faults = [line, "timeout: the CLI did not finish in time"];
  const refusal = (flag?: string) =>
    predicateSchema.parse({ kind: "argv-rejected", matches: "root", ...(flag ? { flag } : {}) });
  const exit = predicateSchema.parse({ kind: "exit-code", equals: 1 });

  it.each([
    ["no argv-rejected predicate", [exit], faults],
    ["an argv-rejected predicate of another flag", [refusal("--permission-mode")], faults],
    ["an argv-rejected predicate of no flag", [exit, refusal()], faults.slice(1)],
    ["an argv-rejected predicate of that flag", [refusal(rejectedArgv.flag)], faults.slice(1)],
  ])("keeps the refusal a fault unless the arm predicts it: %s", (_, expect_, counted) => {
    expect(countedFaults(faults, { rejectedArgv }, expect_)).toEqual(counted);
  });

  it("counts no-request as a fault unless the arm predicts the stop with a no-request predicate", () => {
    const stop = 'no-request: no model request reached the fake server; exit 1; stderr: "no git"';
    const both = [stop, "timeout: the CLI did not finish in time"];
    const predicted = predicateSchema.parse({ kind: "no-request", matches: "git" });
    expect(countedFaults(both, { rejectedArgv: null }, [exit])).toEqual(both);
    expect(countedFaults(both, { rejectedArgv: null }, [exit, predicted])).toEqual(both.slice(1));
    expect(countedFaults(both, null, [predicted])).toEqual(both.slice(1));
  });

  it("leaves the faults of a spawn whose argv was taken as they are", () => {
    expect(countedFaults(faults, { rejectedArgv: null }, [refusal()])).toEqual(faults);
  });
});

describe("armVerdict", () => {
  it("confirms an arm whose every spawn is as expected", () => {
    expect(armVerdict([spawn(1, [true, true]), spawn(2, [true, true])]).verdict).toBe("confirmed");
  });

  it("refutes an arm whose spawns all fail the same predicates, with the failing predicates as reasons", () => {
    const v = armVerdict([
      spawn(1, [true, false]),
      spawn(2, [true, false]),
      spawn(3, [true, false]),
    ]);
    expect(v.verdict).toBe("refuted");
    expect(v.reasons).toContain("p1: did not hold");
  });

  it("calls contrary spawns that fail different predicates a disagreement", () => {
    const v = armVerdict([spawn(1, [true, false]), spawn(2, [false, true])]);
    expect(v.verdict).toBe("inconclusive");
    expect(v.reasons[0]).toBe("spawns disagree");
  });

  it("calls a mix of expected and contrary spawns inconclusive", () => {
    expect(armVerdict([spawn(1, [true]), spawn(2, [false])]).verdict).toBe("inconclusive");
  });

  it("calls any infrastructure fault inconclusive and names it", () => {
    const v = armVerdict([spawn(1, [true]), spawn(2, [true], ["timeout: the CLI did not finish"])]);
    expect(v.verdict).toBe("inconclusive");
    expect(v.reasons).toEqual(["spawn 2: infrastructure fault: timeout: the CLI did not finish"]);
  });

  it("says once, in the CLI's words, that the version refused a flag, instead of a broken cell", () => {
    const line = "claude-code 1.0.128 rejected `--tools`: error: unknown option '--tools'";
    const refused = (i: number): SpawnRecord => ({
      ...spawn(i, [false], [line]),
      observation: observation({
        rejectedArgv: { flag: "--tools", message: "error: unknown option '--tools'" },
      }),
    });
    const v = armVerdict([refused(1), refused(2), refused(3)]);
    expect(v.verdict).toBe("inconclusive");
    expect(v.reasons).toEqual([`${line} (spawns 1, 2, 3)`]);
  });

  it("calls an arm without spawns inconclusive", () => {
    expect(armVerdict([]).verdict).toBe("inconclusive");
  });
});

describe("tally", () => {
  it("counts passes per predicate over the spawns fit as evidence", () => {
    const t = tally(
      ["p0", "p1"],
      [spawn(1, [true, false]), spawn(2, [true, true]), spawn(3, [], ["probe failed"])],
    );
    expect(t).toEqual([
      { label: "p0", passed: 2, of: 2 },
      { label: "p1", passed: 1, of: 2 },
    ]);
  });
});

describe("overallVerdict", () => {
  it.each([
    [["confirmed", "confirmed"], "confirmed"],
    [["confirmed", "refuted"], "refuted"],
    [["refuted", "inconclusive"], "inconclusive"],
    [["confirmed", "inconclusive"], "inconclusive"],
    [[], "inconclusive"],
  ] as const)("arms %j give %s", (verdicts, overall) => {
    expect(overallVerdict(verdicts.map((verdict) => ({ verdict })))).toBe(overall);
  });
});

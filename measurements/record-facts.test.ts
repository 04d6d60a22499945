import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "../test/support/built-cli.js";
import { type MeasurementRecord, recordSchema } from "./record.js";
import { installFactProblems } from "./record-facts.js";

// A committed record of a real run, with its install facts.
const REAL = join(
  WITNESS_ROOT,
  "docs/measurements/0023-claude-code-mcp-closure-claude-code-2.1.332.json",
);
const real = (): MeasurementRecord =>
  recordSchema.parse(JSON.parse(readFileSync(REAL, "utf8")) as unknown);
const OLD = "/root/.cache/witness/claude-code@2.1.282/node_modules/.bin/claude";

describe("a record's version against what its spawns ran", () => {
  it("finds nothing to say about the committed record", () => {
    expect(installFactProblems(real())).toEqual([]);
  });

  it.each<[string, (r: MeasurementRecord) => void, string]>([
    [
      "a spawn's argv",
      (r) => {
        const o = r.arms[0]?.spawns[0]?.observation;
        if (o) o.argv[0] = OLD;
      },
      "arm $ARM spawn 1: observation.argv: expected the claude-code@2.1.332 install; it ran claude-code@2.1.282",
    ],
    [
      "the install's binary",
      (r) => {
        if (r.cli.installed) r.cli.installed.bin = OLD;
      },
      `cli.installed.bin: expected the claude-code@2.1.332 install; got ${OLD}`,
    ],
    [
      "the install's package",
      (r) => {
        const p = r.cli.installed?.packages.find((x) => x.name === "@anthropic-ai/claude-code");
        if (p) p.version = "2.1.282";
      },
      "cli.installed.packages: @anthropic-ai/claude-code is 2.1.282, expected 2.1.332",
    ],
    [
      "the versions run",
      (r) => {
        r.cli.versionsRun = ["2.1.282"];
      },
      "cli.versionsRun: expected only 2.1.332; got 2.1.282",
    ],
  ])("refuses a 2.1.332 record whose %s names 2.1.282", (_, forge, problem) => {
    const record = real();
    forge(record);
    const arm = record.arms[0]?.id ?? "";
    expect(installFactProblems(record)).toEqual([problem.replace("$ARM", arm)]);
  });
});

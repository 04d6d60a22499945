import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, noInstall, observation, protocolText } from "../test/support/observations.js";
import { registeredRepo } from "../test/support/witness-repo.js";
import { renderFlagSweep, sweepFlags } from "./flags-sweep.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await registeredRepo(REL, protocolText());
});
afterEach(() => repo.cleanup());

// Marker B reaches the model only when the spawn caches flag `leak` true: the arm expecting it
// absent is then refuted. Every spec the probe saw is kept.
const seen: ProbeSpec[] = [];
const probe = (spec: ProbeSpec) => {
  seen.push(spec);
  const leak = spec.fixture.featureFlags?.leak === true;
  return Promise.resolve(
    observation({
      cli: spec.cli,
      markers: plantedMarkerNames(spec.fixture).map((n) =>
        marker(n, n === "A" || leak ? ["system"] : []),
      ),
    }),
  );
};

describe("witness flags", () => {
  it("runs each arm as locked and with each flag cached at each value, naming the values that change its verdict", async () => {
    seen.length = 0;
    const result = await sweepFlags({
      cwd: repo.dir,
      file: REL,
      flags: ["leak", "other"],
      spawns: 1,
      probe,
      install: noInstall,
    });
    expect(result.rows).toEqual([
      {
        arm: "only",
        verdict: "confirmed",
        variants: [
          { flag: "leak", value: true, verdict: "refuted", changed: true },
          { flag: "leak", value: false, verdict: "confirmed", changed: false },
          { flag: "other", value: true, verdict: "confirmed", changed: false },
          { flag: "other", value: false, verdict: "confirmed", changed: false },
        ],
      },
    ]);
    // The arm as locked caches nothing; each variant caches exactly its one flag.
    expect(seen.map((s) => s.fixture.featureFlags)).toEqual([
      undefined,
      { leak: true },
      { leak: false },
      { other: true },
      { other: false },
    ]);
    expect(renderFlagSweep(result)).toContain(
      "| only | confirmed | **refuted** | confirmed | confirmed | confirmed |",
    );
  });

  it("flips the catalog's known flags by default, and refuses a bad flag name or an unknown arm", async () => {
    seen.length = 0;
    const result = await sweepFlags({
      cwd: repo.dir,
      file: REL,
      spawns: 1,
      probe,
      install: noInstall,
    });
    expect(result.flags).toContain("tengu_moss_anchor");
    await expect(
      sweepFlags({ cwd: repo.dir, file: REL, flags: ["a b"], probe, install: noInstall }),
    ).rejects.toThrow(UsageError);
    await expect(
      sweepFlags({ cwd: repo.dir, file: REL, arms: ["nope"], probe, install: noInstall }),
    ).rejects.toThrow(/--arm: expected an arm of 0001 \(only\); got nope/);
  });
});

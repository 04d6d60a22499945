import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { compareVersions } from "../core/version-order.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, observation, protocolText } from "../test/support/observations.js";
import { registeredRepo } from "../test/support/witness-repo.js";
import { bisect } from "./bisect.js";

const REL = "docs/prereg/0001-demo.yaml";
const PUBLISHED = [
  "2.1.280",
  "2.1.282",
  "2.1.284",
  "2.1.285-beta.1",
  "2.1.286",
  "2.1.290",
  "2.1.300",
  "2.1.310",
];
let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await registeredRepo(REL, protocolText());
});
afterEach(() => repo.cleanup());

// From 2.1.286 on, marker B reaches the model too, so the arm expecting it absent is refuted.
const probe = (spec: ProbeSpec) => {
  const seen = compareVersions(spec.cli.version, "2.1.286") >= 0 ? ["A", "B"] : ["A"];
  return Promise.resolve(
    observation({
      cli: spec.cli,
      markers: plantedMarkerNames(spec.fixture).map((n) =>
        marker(n, seen.includes(n) ? ["system"] : []),
      ),
    }),
  );
};

describe("bisect", () => {
  it("finds the first version whose verdicts differ, installing only the versions it visits", async () => {
    const installed: string[] = [];
    const result = await bisect({
      cwd: repo.dir,
      file: REL,
      range: { name: "claude-code", from: "2.1.282", to: "2.1.310" },
      out: join(repo.dir, "records"),
      probe,
      published: () => Promise.resolve(PUBLISHED),
      install: (refs) => {
        installed.push(...refs.map((r) => r.version));
        return Promise.resolve();
      },
    });
    expect(result.candidates).toEqual([
      "2.1.282",
      "2.1.284",
      "2.1.286",
      "2.1.290",
      "2.1.300",
      "2.1.310",
    ]);
    expect(result.flip).toMatchObject({
      before: { version: "2.1.284" },
      after: { version: "2.1.286" },
      arm: "only",
      verdicts: { before: "confirmed", after: "refuted" },
      predicate: "marker-absent B 2/2 -> 0/2",
    });
    expect(installed).toEqual(result.visited.map((v) => v.version));
    expect(installed.length).toBeLessThan(result.candidates.length);
    expect(
      (await readdir(join(repo.dir, "records"))).filter((n) => n.endsWith(".json")),
    ).toHaveLength(installed.length);
  });

  it("skips a version inside the range that cannot be installed, and names it beside the flip", async () => {
    const result = await bisect({
      cwd: repo.dir,
      file: REL,
      range: { name: "claude-code", from: "2.1.282", to: "2.1.310" },
      out: join(repo.dir, "records"),
      probe,
      published: () => Promise.resolve(PUBLISHED),
      facts: (ref) =>
        Promise.resolve({
          name: ref.name,
          version: ref.version,
          pkg: `@pkg/${ref.version}`,
          bin: "/b",
          resolvedBin: "/b",
          integrity: "sha512-x",
          packages: [],
        }),
      install: (refs) =>
        refs.some((r) => r.version === "2.1.286")
          ? Promise.reject(new UsageError("claude-code 2.1.286 does not start"))
          : Promise.resolve(),
    });
    expect(result.skipped).toEqual([
      { version: "2.1.286", why: "claude-code 2.1.286 does not start" },
    ]);
    // Each record names the package that ran, as the vendor cache's facts say.
    const first = JSON.parse(await readFile(result.visited[0]?.record ?? "", "utf8")) as {
      cli: { installed?: { pkg: string; integrity: string | null } };
    };
    expect(first.cli.installed).toMatchObject({ pkg: "@pkg/2.1.282", integrity: "sha512-x" });
    expect(result.flip).toMatchObject({
      before: { version: "2.1.284" },
      after: { version: "2.1.290" },
    });
  });

  it("says there is no flip when both ends agree", async () => {
    const result = await bisect({
      cwd: repo.dir,
      file: REL,
      range: { name: "claude-code", from: "2.1.286", to: "2.1.310" },
      out: join(repo.dir, "records"),
      probe,
      published: () => Promise.resolve(PUBLISHED),
      install: () => Promise.resolve(),
    });
    expect(result.flip).toBeNull();
    expect(result.visited.map((v) => v.version)).toEqual(["2.1.286", "2.1.310"]);
  });

  it("refuses an end never published, or a protocol of another CLI, before running anything", async () => {
    let ran = 0;
    const counting = (spec: ProbeSpec) => {
      ran++;
      return probe(spec);
    };
    const common = {
      cwd: repo.dir,
      file: REL,
      out: join(repo.dir, "records"),
      probe: counting,
      published: () => Promise.resolve(PUBLISHED),
      install: () => Promise.resolve(),
    };
    const unpublished = bisect({
      ...common,
      range: { name: "claude-code", from: "2.1.283", to: "2.1.300" },
    });
    await expect(unpublished).rejects.toThrow(
      "claude-code@2.1.283 was never published (@anthropic-ai/claude-code); nearest published: 2.1.282, 2.1.284",
    );
    const other = bisect({ ...common, range: { name: "codex", from: "0.156.1", to: "0.171.0" } });
    await expect(other).rejects.toBeInstanceOf(UsageError);
    await expect(other).rejects.toThrow("protocol 0001 runs claude-code, not codex");
    expect(ran).toBe(0);
  });
});

describe("a bisection across a CLI's rename", () => {
  it("takes its candidates from both packages (pi 0.73.1 under @mariozechner, 0.74.0 on under @earendil-works)", async () => {
    const { candidateVersions } = await import("./bisect.js");
    const both = ["0.72.0", "0.73.0", "0.73.1", "0.74.0", "0.76.0", "0.78.0", "1.6.0"];
    const range = { name: "pi", from: "0.73.1", to: "1.6.0" } as const;
    expect(await candidateVersions(range, () => Promise.resolve(both))).toEqual([
      "0.73.1",
      "0.74.0",
      "0.76.0",
      "0.78.0",
      "1.6.0",
    ]);
    const gap = candidateVersions({ ...range, to: "0.77.0" }, () => Promise.resolve(both));
    await expect(gap).rejects.toThrow(
      "nearest published under @mariozechner/pi-coding-agent: 0.73.1; under @earendil-works/pi-coding-agent: 0.76.0, 0.78.0",
    );
  });
});

describe("the next version a bisection tries", () => {
  it.each([
    [0, 5, [], 2],
    [0, 5, [2], 1],
    [0, 5, [1, 2], 3],
    [1, 3, [2], null],
    [2, 3, [], null],
  ])("between %i and %i, skipping %j: %s", async (lo, hi, bad, want) => {
    const { middle } = await import("./bisect.js");
    expect(middle(lo, hi, new Set(bad))).toBe(want);
  });
});

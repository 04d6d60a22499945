import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { compareVersions } from "../core/version-order.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { CliRef, ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, observation, protocolText } from "../test/support/observations.js";
import { registeredRepo } from "../test/support/witness-repo.js";
import { watch, type WatchOptions } from "./watch.js";
import { renderWatch } from "./watch-render.js";

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
let spawned: string[] = [];
const probe = (spec: ProbeSpec) => {
  spawned.push(spec.cli.version);
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

let installed: string[] = [];
const options = (published: string[], more: Partial<WatchOptions> = {}): WatchOptions => ({
  cwd: repo.dir,
  out: join(repo.dir, "records"),
  probe,
  published: () => Promise.resolve(published),
  install: (refs: readonly CliRef[]) => {
    installed.push(...refs.map((r) => r.version));
    return Promise.resolve();
  },
  ...more,
});
const records = async () =>
  (await readdir(join(repo.dir, "records")).catch(() => []))
    .filter((n) => n.endsWith(".json"))
    .sort();

beforeEach(() => {
  spawned = [];
  installed = [];
});

describe("witness watch", () => {
  it("with no evidence, runs the newest release only: nothing to compare with, no flip", async () => {
    const [w] = await watch(options(["2.1.280", "2.1.282"]));
    expect(w).toMatchObject({
      cli: "claude-code",
      baseline: null,
      target: "2.1.282",
      status: "watched",
      flips: [],
    });
    expect(w?.protocols).toMatchObject([{ id: "0001", how: "ran", comparedWith: null }]);
    expect(new Set(spawned)).toEqual(new Set(["2.1.282"]));
  });

  it("finds a flip among the releases since the evidence and bisects it, reusing both ends' records", async () => {
    await watch(options(["2.1.280", "2.1.282"]));
    installed = [];
    spawned = [];
    const [w] = await watch(options(PUBLISHED));
    expect(w).toMatchObject({
      baseline: "2.1.282",
      newer: ["2.1.284", "2.1.286", "2.1.290", "2.1.300", "2.1.310"],
      target: "2.1.310",
    });
    expect(w?.flips).toMatchObject([
      {
        protocol: "0001",
        arm: "only",
        before: { version: "2.1.282", verdict: "confirmed" },
        after: { version: "2.1.310", verdict: "refuted" },
        first: "2.1.286",
        predicate: "marker-absent B 2/2 -> 0/2",
      },
    ]);
    // 2.1.282 was not run again; the bisection ran only versions between.
    expect(installed[0]).toBe("2.1.310");
    expect(installed).not.toContain("2.1.282");
    expect(installed.filter((v) => v === "2.1.310")).toHaveLength(1);
    expect(spawned).not.toContain("2.1.282");
    expect(renderWatch([w!])).toContain(
      "flip 0001 demo arm only: confirmed on 2.1.282 -> refuted on 2.1.310; first release that differs: 2.1.286",
    );
  });

  it("says nothing new, and spawns nothing, when no release follows the evidence", async () => {
    await watch(options(["2.1.282"]));
    spawned = [];
    installed = [];
    const before = await records();
    const result = await watch(options(["2.1.280", "2.1.282"]));
    expect(result).toMatchObject([{ status: "nothing-new", baseline: "2.1.282" }]);
    expect(spawned).toEqual([]);
    expect(installed).toEqual([]);
    expect(await records()).toEqual(before);
    expect(renderWatch(result)).toBe("claude-code: nothing new after 2.1.282\nnothing changed\n");
  });

  it("--dry-run plans from the registry list and writes, installs and spawns nothing", async () => {
    await watch(options(["2.1.282"]));
    spawned = [];
    installed = [];
    const before = await records();
    const result = await watch(options(PUBLISHED, { dryRun: true }));
    expect(result).toMatchObject([
      {
        status: "planned",
        target: "2.1.310",
        protocols: [{ id: "0001", how: "planned", comparedWith: { version: "2.1.282" } }],
      },
    ]);
    expect(spawned).toEqual([]);
    expect(installed).toEqual([]);
    expect(await records()).toEqual(before);
    expect(renderWatch(result)).toContain("claude-code@2.1.310: would run 1 protocol");
  });

  it("reuses a record of the same lock on the watched version unless --fresh", async () => {
    await watch(options(["2.1.282"]));
    await watch(options(["2.1.282", "2.1.284"]));
    spawned = [];
    const since = [{ name: "claude-code", version: "2.1.282" }] as const;
    const [w] = await watch(options(["2.1.282", "2.1.284"], { since }));
    expect(w?.protocols).toMatchObject([{ how: "reused" }]);
    expect(spawned).toEqual([]);
    const [fresh] = await watch(options(["2.1.282", "2.1.284"], { since, fresh: true }));
    expect(fresh?.protocols).toMatchObject([{ how: "ran" }]);
    expect(spawned.length).toBeGreaterThan(0);
  });

  it("marks a release that cannot be installed, and writes nothing for it", async () => {
    await watch(options(["2.1.282"]));
    const before = await records();
    const result = await watch(
      options(["2.1.282", "2.1.284"], {
        install: () => Promise.reject(new UsageError("npm: no matching version")),
      }),
    );
    expect(result).toMatchObject([
      { status: "could-not-install", why: "npm: no matching version", target: "2.1.284" },
    ]);
    expect(await records()).toEqual(before);
    expect(renderWatch(result)).toContain(
      "claude-code@2.1.284: could not install (npm: no matching version)",
    );
  });

  it("stops before anything is written when the registry cannot be asked", async () => {
    const failing = watch(
      options([], {
        published: () => Promise.reject(new UsageError("npm view: registry unreachable")),
      }),
    );
    await expect(failing).rejects.toBeInstanceOf(UsageError);
    expect(await records()).toEqual([]);
    expect(spawned).toEqual([]);
  });

  it("refuses --since for a CLI it is not watching", async () => {
    const bad = watch(
      options(PUBLISHED, { clis: ["claude-code"], since: [{ name: "codex", version: "0.171.0" }] }),
    );
    await expect(bad).rejects.toThrow(
      "--since codex@…: codex is not among the CLIs watched (claude-code)",
    );
  });
});

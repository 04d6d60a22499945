// A run split into shards and merged gives the records one run gives; targeted runs; one pool.
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError, UsageError } from "../core/errors.js";
import { lockProtocol } from "../prereg/lock.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { marker, noInstall, observation } from "../test/support/observations.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { mergeShards } from "./merge.js";
import type { MeasurementRecord } from "./record.js";
import { runPlanned, runProtocols, type RunProtocolsOptions } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";
import type { ShardFile } from "./shard-file.js";

// Three arms with three outcomes: A is seen (confirmed), B is seen though expected absent
// (refuted), F's spawns fault (inconclusive). The probe answers by what the arm plants, so every
// spawn of an arm gets the same answer whichever machine, shard or order runs it.
const protocol = (id: string, slug: string, spawns: number, arms: string[]) => `id: "${id}"
slug: ${slug}
title: Sharded demo ${id}
adr: "0001"
hypothesis: A reaches the model and B does not.
cli: { name: claude-code, version: 2.1.332 }
spawns: ${spawns}
arms:
${arms
  .map(
    (m) => `  - id: arm-${m.toLowerCase()}
    description: plants ${m}
    fixture: { files: [{ at: workspace, path: ${m}.md, content: "{{marker:${m}}}" }] }
    launch: { argv: ["-p", "hi"] }
    expect:
      - { kind: ${m === "B" ? "marker-absent" : "marker-present"}, marker: ${m} }
`,
  )
  .join("")}`;

let calls = 0;
let inFlight = 0;
let maxInFlight = 0;
const probe: ProbeFn = async (spec: ProbeSpec) => {
  calls++;
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  // Long enough that a shared pool has two spawns under way at once.
  await new Promise((r) => setTimeout(r, 20));
  inFlight--;
  const names = plantedMarkerNames(spec.fixture);
  if (names.includes("F")) return observation({ faults: ["no-request: nothing reached the fake"] });
  return observation({ markers: names.map((n) => marker(n, ["system"])) });
};

let repo: { dir: string; cleanup: () => Promise<void> };
const files = ["docs/prereg/0001-demo.yaml", "docs/prereg/0002-other.yaml"];
beforeEach(async () => {
  calls = 0;
  maxInFlight = 0;
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, files[0] as string, protocol("0001", "demo", 3, ["A", "B", "F"]));
  await put(repo.dir, files[1] as string, protocol("0002", "other", 2, ["A", "B"]));
  await commit(repo.dir, "register");
  for (const f of files) await lockProtocol(f, { cwd: repo.dir });
  await commit(repo.dir, "lock");
});
afterEach(() => repo.cleanup());

const base = (over: Partial<RunProtocolsOptions> = {}): RunProtocolsOptions => ({
  cwd: repo.dir,
  all: true,
  jobs: 2,
  install: noInstall,
  facts: () => Promise.resolve(null),
  probe,
  ...over,
});

// What must be equal between a single run and a merged one: all but the clock and the shards.
function comparable(r: MeasurementRecord): Partial<MeasurementRecord> {
  const copy: Partial<MeasurementRecord> = { ...r };
  delete copy.startedAt;
  delete copy.finishedAt;
  delete copy.shards;
  return copy;
}

describe("a run split into 3 shards, merged", () => {
  it("writes the records one run writes: the same verdicts, arms, spawn tables and CSV", async () => {
    const single = await runProtocols(base({ out: join(repo.dir, "single") }));
    expect(single.map((r) => r.record.verdict)).toEqual(["inconclusive", "refuted"]);
    expect(single[0]?.record.arms.map((a) => a.verdict)).toEqual([
      "confirmed",
      "refuted",
      "inconclusive",
    ]);
    const singleCalls = calls;
    calls = 0;
    const dirs = [1, 2, 3].map((i) => join(repo.dir, `shard-${i}`));
    const parts: number[] = [];
    for (const [i, out] of dirs.entries()) {
      const outcome = await runPlanned(
        base({ out, shard: { index: i + 1, count: 3 }, runId: "r1" }),
      );
      expect(outcome.runs).toEqual([]);
      parts.push(outcome.shard?.spawns ?? 0);
      expect(await readdir(out)).toEqual([`witness-shard-${i + 1}-of-3.json`]);
    }
    // 3 arms × 3 spawns + 2 arms × 2 spawns = 13, dealt round-robin: 5, 4, 4.
    expect(parts).toEqual([5, 4, 4]);
    expect(calls).toBe(singleCalls);
    const merged = await mergeShards(dirs, { cwd: repo.dir, out: join(repo.dir, "merged") });
    expect(merged.map((r) => comparable(r.record))).toEqual(
      single.map((r) => comparable(r.record)),
    );
    expect(merged[0]?.record.shards?.parts.map((p) => p.spawns)).toEqual([3, 3, 3]);
    for (const [i, run] of merged.entries()) {
      const csv = await readFile(run.written.csv, "utf8");
      expect(csv).toBe(await readFile(single[i]?.written.csv ?? "", "utf8"));
    }
  });

  it("refuses shards of different plans or runs, a missing or doubled shard, writing nothing", async () => {
    const shard = (i: number, over: Partial<RunProtocolsOptions> = {}) =>
      runPlanned(
        base({
          out: join(repo.dir, `s${i}-${over.runId ?? ""}-${over.spawns ?? ""}`),
          shard: { index: i, count: 2 },
          runId: "r1",
          ...over,
        }),
      );
    const a1 = (await shard(1)).shard?.file ?? "";
    const a2 = (await shard(2)).shard?.file ?? "";
    const b2 = (await shard(2, { runId: "r2" })).shard?.file ?? "";
    const c2 = (await shard(2, { spawns: 1 })).shard?.file ?? "";
    const out = join(repo.dir, "merged");
    for (const [paths, message] of [
      [[a1, b2], /from run r2, .* from run r1; merge shards of one run only/],
      [[a1, c2], /is a shard of another plan/],
      [[a1], /shard\(s\) 2\/2 missing/],
      [[a1, a1, a2], /are both shard 1\/2/],
    ] as const) {
      const error = await mergeShards(paths, { cwd: repo.dir, out }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
    }
    await expect(readdir(out)).rejects.toThrow();
  });

  it("refuses a shard that is a symlink, named or found in a directory, naming it (exit 2)", async () => {
    const shard = (i: number) =>
      runPlanned(
        base({ out: join(repo.dir, `l${i}`), shard: { index: i, count: 2 }, runId: "r1" }),
      );
    const a1 = (await shard(1)).shard?.file ?? "";
    const a2 = (await shard(2)).shard?.file ?? "";
    const linked = join(repo.dir, "linked");
    await mkdir(linked);
    const link = join(linked, basename(a2));
    await symlink(a2, link);
    for (const paths of [
      [a1, link],
      [a1, linked],
    ]) {
      const error = await mergeShards(paths, { cwd: repo.dir, out: join(repo.dir, "m") }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toBe(
        `${link}: expected the shard file as a regular file; got a symlink`,
      );
    }
  });

  it("compares the merged record with the committed ones its lock counts, earlier forms included", async () => {
    // A committed record of protocol 0002 made under an earlier canonical form of its lock.
    const [committed] = await runProtocols(base({ all: false, files: [files[1] as string] }));
    const path = committed?.written.json ?? "";
    const old = JSON.parse(await readFile(path, "utf8")) as MeasurementRecord;
    old.protocol.canonicalHash = "sha256:earlier-form";
    await writeFile(path, JSON.stringify(old));
    await commit(repo.dir, "record");
    const out = join(repo.dir, "s1");
    const shard =
      (
        await runPlanned(
          base({ all: false, files: [files[1] as string], out, shard: { index: 1, count: 1 } }),
        )
      ).shard?.file ?? "";
    const file = JSON.parse(await readFile(shard, "utf8")) as ShardFile;
    const lockHash = file.entries[0]?.header.protocol.canonicalHash ?? "";
    expect(file.entries[0]?.counting).toEqual([lockHash]);
    const merge = async (dir: string) =>
      (await mergeShards([shard], { cwd: repo.dir, out: join(repo.dir, dir) }))[0]?.reproduction;
    expect((await merge("m1"))?.kind).toBe("none");
    // What prereg's lock check says for a re-expressed lock: both hashes count.
    file.entries[0]!.counting = [lockHash, "sha256:earlier-form"];
    await writeFile(shard, JSON.stringify(file));
    expect(await merge("m2")).toMatchObject({ kind: "compared", reproduces: true });
  });

  it("refuses a shard whose protocol or CLI names a file outside the records directory", async () => {
    const out = join(repo.dir, "s1");
    const shard =
      (
        await runPlanned(
          base({ all: false, files: [files[1] as string], out, shard: { index: 1, count: 1 } }),
        )
      ).shard?.file ?? "";
    const original = await readFile(shard, "utf8");
    for (const [field, value] of [
      ["slug", "../../escaped"],
      ["version", "2.1.332/../../../escaped"],
    ] as const) {
      const file = JSON.parse(original) as ShardFile;
      const header = file.entries[0]!.header;
      if (field === "slug") header.protocol.slug = value;
      else header.cli.version = value;
      await writeFile(shard, JSON.stringify(file));
      const error = await mergeShards([shard], {
        cwd: repo.dir,
        out: join(repo.dir, "m", "n"),
      }).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        field === "slug" ? /slug: expected/ : /version: expected/,
      );
    }
    expect((await readdir(repo.dir)).filter((n) => n.includes("escaped"))).toEqual([]);
    expect(
      (await readdir(join(repo.dir, "m")).catch(() => [])).filter((n) => n.includes("escaped")),
    ).toEqual([]);
  });

  it("refuses a shard directory that already holds the shard, before any spawn", async () => {
    const out = join(repo.dir, "s");
    await runPlanned(base({ out, shard: { index: 1, count: 2 } }));
    calls = 0;
    await expect(runPlanned(base({ out, shard: { index: 1, count: 2 } }))).rejects.toThrow(
      /already exists: give this shard a fresh --out directory/,
    );
    expect(calls).toBe(0);
  });
});

describe("targeted runs and the shared pool", () => {
  it("runs only the --arm named, as a partial record compared on that arm only", async () => {
    const [run] = await runProtocols(
      base({ files: [files[0] as string], all: false, arms: ["arm-a"], out: join(repo.dir, "r") }),
    );
    expect(calls).toBe(3);
    expect(run?.record.arms.map((a) => a.id)).toEqual(["arm-a"]);
    expect(run?.record.selection).toEqual({ arms: ["arm-a"], reason: "--arm arm-a" });
  });

  it("refuses an --arm that names no arm, listing them, before any spawn", async () => {
    const error = await runProtocols(base({ arms: ["arm-z"], out: join(repo.dir, "r") })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      '--arm "arm-z": no arm of the protocols run has that id (0001: arm-a, arm-b, arm-f; 0002: arm-a, arm-b)',
    );
    expect(calls).toBe(0);
  });

  it("re-runs only the arms the newest record left inconclusive", async () => {
    const out = join(repo.dir, "r");
    await runProtocols(base({ out }));
    calls = 0;
    const skipped: string[] = [];
    const again = await runProtocols(
      base({ out, rerun: ["inconclusive"], onSkip: (l) => skipped.push(l) }),
    );
    expect(calls).toBe(3);
    expect(again.map((r) => [r.record.protocol.id, r.record.arms.map((a) => a.id)])).toEqual([
      ["0001", ["arm-f"]],
    ]);
    expect(again[0]?.record.selection?.reason).toBe(
      "--rerun inconclusive of 0001-demo-claude-code-2.1.332.json",
    );
    expect(skipped).toEqual([
      "skipped 0002 other on claude-code@2.1.332: no inconclusive arm in 0002-other-claude-code-2.1.332.json",
    ]);
  });

  it("runs the protocols' spawns in one pool, not one protocol after another", async () => {
    await runProtocols(
      base({ jobs: 2, spawns: 1, arms: ["0001/arm-a", "0002/arm-a"], out: join(repo.dir, "r") }),
    );
    expect(calls).toBe(2);
    expect(maxInFlight).toBe(2);
  });
});

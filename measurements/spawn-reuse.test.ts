import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { canonicalHash, sha256 } from "../core/canonical.js";
import { parseProtocol } from "../prereg/load.js";
import type { LockCheck } from "../prereg/verify.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import type { Runtime } from "../probes/contracts/runtime.js";
import { marker, observation, protocolText } from "../test/support/observations.js";
import type { InstalledCli, SpawnRecord } from "./record.js";
import { reuseText } from "./reuse-text.js";
import { spawnAll, startProgress } from "./run-spawns.js";
import { recordFrame } from "./runner.js";
import { planSpawns, type RunEntry } from "./spawn-plan.js";
import { reuseRefusal, type SpawnReuse, startReuse } from "./spawn-reuse.js";

function entry(text = protocolText()): RunEntry {
  const protocol = parseProtocol(text, "docs/prereg/0001-demo.yaml");
  const loaded = {
    file: "docs/prereg/0001-demo.yaml",
    protocol,
    canonicalHash: canonicalHash(protocol),
    bytesHash: sha256(text),
  };
  const lock = {
    schema: "witness.lock/1" as const,
    protocol: "0001",
    file: loaded.file,
    canonicalHash: loaded.canonicalHash,
    bytesHash: loaded.bytesHash,
    lockedAt: "2026-01-01T00:00:00.000Z",
    commit: "a".repeat(40),
  };
  const check: LockCheck = {
    loaded,
    lock,
    state: "locked",
    message: "locked",
    counting: [lock.canonicalHash],
  };
  return {
    check,
    cli: protocol.cli,
    spawns: protocol.spawns,
    arms: protocol.arms,
    selection: null,
  };
}

const installed = (integrity: string | null): InstalledCli => ({
  pkg: "@anthropic-ai/claude-code",
  bin: "/cache/claude-code@2.1.332/node_modules/.bin/claude",
  resolvedBin: "/cache/claude-code@2.1.332/node_modules/@anthropic-ai/claude-code/cli.js",
  integrity,
  packages: [],
});

const native: Runtime = { kind: "native", why: "an ELF executable" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-spawn-reuse-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function reuse(
  e: RunEntry,
  run: string,
  over: { integrity?: string | null; dirty?: boolean; compileCache?: string } = {},
): SpawnReuse {
  return startReuse({
    entries: [e],
    installed: () => installed(over.integrity === undefined ? "sha512-abc" : over.integrity),
    witness: { version: "0.1.0", commit: "b".repeat(40), dirty: over.dirty ?? false },
    cacheDir: dir,
    run,
    runtimeOf: () => Promise.resolve(native),
    inherited: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
    compileCache: () => over.compileCache ?? "off",
  });
}

/** Runs every spawn of `e` through a counting probe (`fault` makes each spawn a fault). */
async function run(e: RunEntry, r: SpawnReuse, options: { fault?: string } = {}) {
  const calls: ProbeSpec[] = [];
  const probe = (spec: ProbeSpec) => {
    calls.push(spec);
    return Promise.resolve(
      observation({
        markers: plantedMarkerNames(spec.fixture).map((n) =>
          marker(n, n === "A" ? ["messages"] : []),
        ),
        ...(options.fault === undefined ? {} : { faults: [options.fault] }),
      }),
    );
  };
  const spawns = planSpawns([e]);
  const progress = startProgress([e], spawns, (x) => recordFrame(x));
  const step = {
    entries: [e],
    probe,
    journal: null,
    now: () => new Date("2026-01-02T00:00:00.000Z"),
    onEntryDone: () => undefined,
    reuse: r,
  };
  await spawnAll(spawns, progress, step, {});
  const byArm = progress.entries[0]?.byArm ?? new Map<string, SpawnRecord[]>();
  return { calls: calls.length, spawns: [...byArm.values()].flat() };
}

describe("the spawn cache", () => {
  it("takes every spawn of a second run with the same inputs, naming the run it came from", async () => {
    const e = entry();
    const first = await run(e, reuse(e, "run-1"));
    expect(first.calls).toBe(2);
    expect(first.spawns.every((s) => s.reused === undefined)).toBe(true);
    const second = await run(e, reuse(e, "run-2"));
    expect(second.calls).toBe(0);
    expect(second.spawns.map((s) => s.reused?.run)).toEqual(["run-1", "run-1"]);
    expect(second.spawns.map((s) => s.reused?.spawn).sort()).toEqual([
      "0001@claude-code@2.1.332/only/1",
      "0001@claude-code@2.1.332/only/2",
    ]);
    // The judged spawn is the one filed, observation and predicates alike.
    const strip = (s: SpawnRecord) => ({ ...s, reused: undefined });
    expect(second.spawns.map(strip)).toEqual(first.spawns.map(strip));
  });

  it("spawns again when the install, the arm, the compile cache or the lock differ", async () => {
    const e = entry();
    await run(e, reuse(e, "run-1"));
    expect((await run(e, reuse(e, "run-2", { integrity: "sha512-other" }))).calls).toBe(2);
    expect((await run(e, reuse(e, "run-3", { compileCache: "read" }))).calls).toBe(2);
    const otherArm = entry(protocolText({ expectB: "marker-present" }));
    expect((await run(otherArm, reuse(otherArm, "run-4"))).calls).toBe(2);
  });

  it("files no transient fault, and nothing whose inputs are unknown (no integrity, a dirty checkout)", async () => {
    const e = entry();
    await run(e, reuse(e, "run-1"), { fault: "timeout: the CLI did not finish in time" });
    expect((await run(e, reuse(e, "run-2"))).calls).toBe(2);
    await run(e, reuse(e, "run-3", { integrity: null }));
    expect((await run(e, reuse(e, "run-4", { integrity: null }))).calls).toBe(2);
    await run(e, reuse(e, "run-5", { dirty: true }));
    expect((await run(e, reuse(e, "run-6", { dirty: true }))).calls).toBe(2);
  });

  it("is refused for --fresh, --keep, an injected probe and an unidentified witness", () => {
    const clean = { version: "0.1.0", commit: "b".repeat(40), dirty: false };
    expect(reuseRefusal({ injectedProbe: false, witness: clean })).toBeNull();
    expect(reuseRefusal({ fresh: true, injectedProbe: false, witness: clean })).toBe("--fresh");
    expect(reuseRefusal({ keep: true, injectedProbe: false, witness: clean })).toBe("--keep");
    expect(reuseRefusal({ injectedProbe: true, witness: clean })).toMatch(/probe/);
    expect(reuseRefusal({ injectedProbe: false, witness: { ...clean, dirty: true } })).toMatch(
      /uncommitted/,
    );
    expect(reuseRefusal({ injectedProbe: false, witness: { ...clean, commit: null } })).toMatch(
      /unknown/,
    );
  });
});

describe("the spawn cache and faults", () => {
  it("files a fault that follows from the inputs (a refused flag), and takes it again", async () => {
    const e = entry();
    const refused = "claude-code 2.1.332 rejected `--approve`: Error: Unknown option";
    const first = await run(e, reuse(e, "run-1"), { fault: refused });
    expect(first.spawns.map((s) => s.status)).toEqual(["fault", "fault"]);
    const second = await run(e, reuse(e, "run-2"));
    expect(second.calls).toBe(0);
    expect(second.spawns.map((s) => s.faults)).toEqual([[refused], [refused]]);
  });
});

describe("reuseText", () => {
  it("counts the reused spawns and names their runs; none reused, no line", () => {
    const spawn = (run?: string): SpawnRecord => ({
      index: 1,
      status: "as-expected",
      faults: [],
      observation: null,
      predicates: [],
      ...(run === undefined
        ? {}
        : { reused: { run, spawn: "k", startedAt: "", finishedAt: "", inputs: "sha256:0" } }),
    });
    const record = (spawns: SpawnRecord[]) =>
      ({ arms: [{ spawns }] }) as unknown as Parameters<typeof reuseText>[0];
    expect(reuseText(record([spawn(), spawn()]))).toBeNull();
    expect(reuseText(record([spawn("r2"), spawn("r1"), spawn()]))).toMatch(
      /^2 of 3 spawns taken from the spawn cache .*first run in r1, r2\), the rest run now$/,
    );
    expect(reuseText(record([spawn("r1")]))).toMatch(/first run in r1\)$/);
  });
});

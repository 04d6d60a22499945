import { isAbsolute, join, resolve } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { firstLine } from "../core/error-text.js";
import { UsageError } from "../core/errors.js";
import { errnoCode } from "../core/fs-errors.js";
import { repoRoot } from "../core/git.js";
import type { LockCheck } from "../prereg/verify.js";
import { listProtocols, refuseUnlessLocked, verifyProtocols } from "../prereg/verify.js";
import { type CliRef, cliRefSchema } from "../probes/contracts/probe-spec.js";
import type { InstalledFacts } from "../probes/vendor-cache.js";
import { compareWithCommitted, type Reproduction } from "./committed-record.js";
import {
  createJournal,
  type Journal,
  journalDir,
  type JournaledSpawn,
  readJournal,
} from "./journal.js";
import { runPool } from "./pool.js";
import type { InstalledCli, MeasurementRecord, SpawnRecord, Verdict } from "./record.js";
import { recordInLedger } from "./run-ledger.js";
import {
  assembleRecord,
  defaultProbe,
  type ProbeFn,
  type RecordFrame,
  recordFrame,
  runSpawn,
  thisMachine,
} from "./runner.js";
import { selectArms } from "./select-arms.js";
import { refuseExistingShard, type ShardFile, writeShardFile } from "./shard-file.js";
import {
  entryKey,
  planId,
  type PlannedSpawn,
  planSpawns,
  type RunEntry,
  type Shard,
  shardSpawns,
} from "./spawn-plan.js";
import { type WitnessBuild, witnessBuild } from "./witness-build.js";
import { ensureWritableDir, writeRecord, type WrittenRecord } from "./write-record.js";

/** Installs every CLI version a run needs before its first spawn; throws (exit 2) on a failure. */
export type InstallFn = (
  refs: readonly CliRef[],
  cacheDir?: string,
  /** Node versions arms pin (installed too, before any spawn). */
  pins?: readonly string[],
) => Promise<void>;

/** What the vendor cache says of an installed version (null when it is not installed). */
export type FactsFn = (ref: CliRef, cacheDir?: string) => Promise<InstalledFacts | null>;

/** One arm of one protocol run, finished: what a line of a non-terminal run's output says. */
export interface ArmDone {
  protocol: string;
  slug: string;
  cli: string;
  arm: string;
  /** The arm's verdict (null in a shard: its other spawns run elsewhere). */
  verdict: Verdict | null;
  /** The statuses of the spawns that ran here, in index order. */
  statuses: SpawnRecord["status"][];
  reasons: string[];
}

/** Options of `runProtocols` (`witness run`). */
export interface RunProtocolsOptions {
  cwd?: string;
  /** Protocol files; empty with `all` runs every registered protocol. */
  files?: readonly string[];
  all?: boolean;
  spawns?: number;
  jobs?: number;
  keep?: boolean;
  onCellKept?: (dir: string) => void;
  /** Records directory (default the repository's docs/measurements). */
  out?: string;
  cacheDir?: string;
  /**
   * Versions to run instead of the protocols' own: each replaces the version for the protocols of
   * its CLI; several of one CLI make a matrix; protocols of a CLI not named are skipped.
   */
  clis?: readonly CliRef[];
  /** Only these arms (`arm-id`, or `0001/arm-id` for one protocol's). */
  arms?: readonly string[];
  /** Only the arms whose verdict in the newest record (in `out`) is one of these. */
  rerun?: readonly Verdict[];
  /** Run one part of the spawns and write a partial result instead of records. */
  shard?: Shard;
  /** Tells two runs of one plan apart when their shards are merged (`--run-id`). */
  runId?: string;
  signal?: AbortSignal;
  probe?: ProbeFn;
  /** The installer (default: the vendor cache, one registry query per CLI, one install per version). */
  install?: InstallFn;
  /** The installed facts a record keeps (default: the vendor cache's). */
  facts?: FactsFn;
  /** The run ledger each written record is added to (none when absent). */
  ledger?: string;
  onSpawn?: (protocol: string, done: number, total: number, arm: string) => void;
  /** Told of each arm as its last spawn here finishes. */
  onArm?: (arm: ArmDone) => void;
  /** Told after each record is written. */
  onRecordWritten?: (run: ProtocolRun) => void;
  /** Told of each protocol skipped (no `--cli` names its CLI, no arm selected). */
  onSkip?: (line: string) => void;
  now?: () => Date;
  /** Finish the run this journal holds (`witness run --resume`): only the spawns it lacks run. */
  resume?: string;
  /** Where the run's journal goes (`journalDir()` for `witness run`); none when absent. */
  journalDir?: string;
  /** Told of the run's journal once it exists, so an interrupt can name it. */
  onJournal?: (file: string) => void;
  /** The record writer (injectable: a test fills the disk). */
  writeRecord?: typeof writeRecord;
  /** Where the CLIs' machine-wide managed files are looked for (tests: a temp root; default `/`). */
  managedRoot?: string;
}

/** One protocol's run on one version: its record, where it went, and how it compares. */
export interface ProtocolRun {
  file: string;
  record: MeasurementRecord;
  written: WrittenRecord;
  /** The comparison with the committed record of the same protocol, lock and version. */
  reproduction: Reproduction;
}

/** One protocol on one version, as a run plans it. */
export interface PlannedRun {
  check: LockCheck;
  cli: CliRef;
}

/** Which protocol runs on which versions; a protocol whose CLI no `--cli` names is skipped. */
export function planRuns(
  checks: readonly LockCheck[],
  clis: readonly CliRef[] | undefined,
): { runs: PlannedRun[]; skipped: string[] } {
  const runs: PlannedRun[] = [];
  const skipped: string[] = [];
  for (const check of checks) {
    const own = check.loaded.protocol.cli;
    if (clis === undefined || clis.length === 0) {
      runs.push({ check, cli: own });
      continue;
    }
    const mine = clis.filter((c) => c.name === own.name);
    if (mine.length === 0) {
      const asked = [...new Set(clis.map((c) => c.name))].join(", ");
      skipped.push(
        `skipped ${check.loaded.protocol.id} ${check.loaded.protocol.slug}: it runs ${own.name}, and --cli names only ${asked}`,
      );
      continue;
    }
    for (const cli of mine) runs.push({ check, cli });
  }
  return { runs, skipped };
}

async function defaultInstall(
  refs: readonly CliRef[],
  cacheDir?: string,
  pins: readonly string[] = [],
): Promise<void> {
  const { installAll } = await import("../probes/vendor-registry.js");
  await installAll(refs, { ...(cacheDir === undefined ? {} : { cacheDir }), pins });
}

async function defaultFacts(ref: CliRef, cacheDir?: string): Promise<InstalledFacts | null> {
  const { installedFacts } = await import("../probes/vendor-cache.js");
  return installedFacts(ref, cacheDir === undefined ? {} : { cacheDir });
}

/** A run decided, before anything is installed or spawned. */
export interface RunPlan {
  cwd: string;
  out: string;
  entries: RunEntry[];
  /** Every spawn of the plan, in its order. */
  spawns: PlannedSpawn[];
  /** The spawns this machine runs (all of them unless a shard is asked for). */
  mine: PlannedSpawn[];
  skipped: string[];
  plan: string;
}

/**
 * Checks every lock and the records directory, selects the arms, and lays out the spawns; refuses
 * bad input (exit 2) before anything is installed or spawned.
 */
export async function planRun(options: RunProtocolsOptions): Promise<RunPlan> {
  const cwd = options.cwd ?? process.cwd();
  const given = options.files ?? [];
  if (options.all === true && given.length > 0)
    throw new UsageError("name protocols or pass --all, not both");
  if (options.all !== true && given.length === 0)
    throw new UsageError("name a protocol file, or pass --all");
  const files =
    options.all === true
      ? await listProtocols({ cwd })
      : given.map((f) => (isAbsolute(f) ? f : resolve(cwd, f)));
  if (files.length === 0) throw new UsageError("no registered protocol in docs/prereg");
  const checks = await verifyProtocols({ cwd, files });
  // Refuse everything up front: a refused protocol must not leave its siblings half-run.
  checks.forEach(refuseUnlessLocked);
  const { runs: planned, skipped } = planRuns(checks, options.clis);
  if (planned.length === 0)
    throw new UsageError(`no protocol to run: ${skipped.join("; ") || "none selected"}`);
  const out =
    options.out === undefined
      ? join(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  const all: RunEntry[] = planned.map(({ check, cli }) => ({
    check,
    cli,
    spawns: options.spawns ?? check.loaded.protocol.spawns,
    arms: check.loaded.protocol.arms,
    selection: null,
  }));
  const selected = await selectArms(all, {
    ...(options.arms === undefined ? {} : { arms: options.arms }),
    ...(options.rerun === undefined ? {} : { rerun: options.rerun }),
    recordsDir: out,
  });
  const spawns = planSpawns(selected.entries);
  const mine = options.shard === undefined ? spawns : shardSpawns(spawns, options.shard);
  return {
    cwd,
    out,
    entries: selected.entries,
    spawns,
    mine,
    skipped: [...skipped, ...selected.skipped],
    plan: planId(selected.entries),
  };
}

/** How a run ended: the records written, or the shard file, and what was skipped. */
export interface RunOutcome {
  runs: ProtocolRun[];
  /** The partial result written by a shard, and how many spawns it ran. */
  shard: { file: string; spawns: number } | null;
  skipped: string[];
}

// Per entry: its frame, the spawns still to come here, and the ones done (by arm).
interface EntryProgress {
  frame: RecordFrame;
  left: number;
  armsLeft: Map<string, number>;
  byArm: Map<string, SpawnRecord[]>;
  startedAt: string | null;
  finishedAt: string;
}

/** What a record keeps of the vendor cache's facts about an install. */
export function installedCli(f: InstalledFacts): InstalledCli {
  return {
    pkg: f.pkg,
    bin: f.bin,
    resolvedBin: f.resolvedBin,
    integrity: f.integrity,
    packages: f.packages,
  };
}

async function installedOf(
  entries: readonly RunEntry[],
  facts: FactsFn,
  cacheDir: string | undefined,
): Promise<Map<string, InstalledCli>> {
  const out = new Map<string, InstalledCli>();
  for (const { cli } of entries) {
    const key = `${cli.name}@${cli.version}`;
    if (out.has(key)) continue;
    const f = await facts(cli, cacheDir);
    if (f !== null) out.set(key, installedCli(f));
  }
  return out;
}

/**
 * Runs a plan: installs every CLI version first, then every spawn of every protocol through one
 * pool of `jobs`, writing each protocol's record as its last spawn finishes (or, for a shard, one
 * partial result at the end).
 */
export async function runPlanned(given: RunProtocolsOptions): Promise<RunOutcome> {
  const resumed = given.resume === undefined ? null : await resumeOptions(given);
  const options = resumed?.options ?? given;
  const plan = await planRun(options);
  if (resumed !== null && plan.plan !== resumed.header.plan)
    throw new UsageError(
      `${resumed.journal.file}: the run it holds no longer plans the same (a protocol or its lock changed since ${resumed.header.startedAt}); run it anew`,
    );
  const { out, entries } = plan;
  await ensureWritableDir(out);
  if (options.shard !== undefined)
    await refuseExistingShard(out, options.shard.index, options.shard.count);
  if (entries.length === 0) {
    for (const line of plan.skipped) options.onSkip?.(line);
    return { runs: [], shard: null, skipped: plan.skipped };
  }
  await refuseManagedArms(entries, options.managedRoot);
  // Every version before the first spawn: a failed install stops the run with nothing written.
  await (options.install ?? defaultInstall)(
    entries.map((e) => e.cli),
    options.cacheDir,
    entries.flatMap((e) =>
      e.arms.flatMap((a) => (a.runtime === undefined ? [] : [a.runtime.node])),
    ),
  );
  for (const line of plan.skipped) options.onSkip?.(line);
  const now = options.now ?? (() => new Date());
  const installed = await installedOf(entries, options.facts ?? defaultFacts, options.cacheDir);
  const build: WitnessBuild = await witnessBuild();
  const machine = thisMachine();
  const spawnTimesSeed = new Map<string, { startedAt: string; finishedAt: string }>();
  const progress: EntryProgress[] = entries.map((entry) => {
    const mine = plan.mine.filter((s) => plan.entries[s.entry] === entry);
    const armsLeft = new Map<string, number>();
    for (const s of mine) armsLeft.set(s.arm.id, (armsLeft.get(s.arm.id) ?? 0) + 1);
    const facts = installed.get(`${entry.cli.name}@${entry.cli.version}`);
    return {
      frame: recordFrame(entry, {
        ...(facts === undefined ? {} : { installed: facts }),
        witness: build,
        machine,
      }),
      left: mine.length,
      armsLeft,
      byArm: new Map(),
      startedAt: null,
      finishedAt: "",
    };
  });
  // Journaled spawns are kept, not spawned again; records already written are not written again.
  const done = resumed?.spawns ?? new Map<string, JournaledSpawn>();
  const todo = plan.mine.filter((s) => !done.has(s.key));
  for (const s of plan.mine) {
    const kept = done.get(s.key);
    const p = progress[s.entry];
    if (kept === undefined || p === undefined) continue;
    p.byArm.set(s.arm.id, [...(p.byArm.get(s.arm.id) ?? []), kept.spawn]);
    p.armsLeft.set(s.arm.id, (p.armsLeft.get(s.arm.id) ?? 1) - 1);
    p.left--;
    if (p.startedAt === null || kept.startedAt < p.startedAt) p.startedAt = kept.startedAt;
    if (kept.finishedAt > p.finishedAt) p.finishedAt = kept.finishedAt;
    spawnTimesSeed.set(s.key, kept);
  }
  const journal: Journal | null =
    options.shard !== undefined || (options.journalDir === undefined && resumed === null)
      ? null
      : (resumed?.journal ??
        (await createJournal(
          {
            type: "run",
            schema: "witness.journal/1",
            plan: plan.plan,
            cwd: plan.cwd,
            out,
            files: [...new Set(entries.map((e) => resolve(plan.cwd, e.check.loaded.file)))],
            ...(options.spawns === undefined ? {} : { spawns: options.spawns }),
            ...(options.clis === undefined ? {} : { clis: [...options.clis] }),
            ...(options.arms === undefined && options.rerun === undefined
              ? {}
              : {
                  arms: entries.flatMap((e) =>
                    e.arms.map((a) => `${e.check.loaded.protocol.id}/${a.id}`),
                  ),
                }),
            startedAt: now().toISOString(),
          },
          options.journalDir ?? journalDir(process.env, options.cacheDir),
        )));
  if (journal !== null) options.onJournal?.(journal.file);
  const probe = options.probe ?? (await defaultProbe());
  // By entry: records are written as protocols finish, reported in the plan's order.
  const runs = new Map<number, ProtocolRun>();
  const spawnTimes = new Map<string, { startedAt: string; finishedAt: string }>(spawnTimesSeed);
  // Records are written one at a time, in the order their protocols finish.
  let writing: Promise<void> = Promise.resolve();
  const finish = (e: number): void => {
    const p = progress[e];
    const entry = entries[e];
    if (p === undefined || entry === undefined || options.shard !== undefined) return;
    // Written before an earlier attempt failed or was interrupted: not again.
    if (resumed?.written.has(entryKey(entry)) === true) return;
    writing = writing.then(async () => {
      const record = assembleRecord(p.frame, p.byArm, {
        startedAt: p.startedAt ?? now().toISOString(),
        finishedAt: p.finishedAt,
      });
      let written: WrittenRecord;
      try {
        written = await (options.writeRecord ?? writeRecord)(record, out);
      } catch (error) {
        const { id, slug } = entry.check.loaded.protocol;
        const kept =
          journal === null
            ? ""
            : `; its spawns are kept in ${journal.file}: once the record can be written, \`witness run --resume ${journal.file}\``;
        throw new UsageError(
          `${out}: cannot write the record of ${id} ${slug} (${errnoCode(error, String(error))})${kept}`,
        );
      }
      await journal?.written(entryKey(entry), written.json);
      if (options.ledger !== undefined) await recordInLedger(options.ledger, record, written.json);
      const run: ProtocolRun = {
        file: entry.check.loaded.file,
        record,
        written,
        reproduction: await compareWithCommitted(record, plan.cwd, entry.check.counting),
      };
      runs.set(e, run);
      options.onRecordWritten?.(run);
    });
  };
  const started = now().toISOString();
  // An entry whose every spawn was journaled is written first.
  progress.forEach((p, e) => {
    if (p.left === 0) finish(e);
  });
  let count = 0;
  try {
    await runPool(
      todo,
      options.jobs ?? 1,
      async (task) => {
        const p = progress[task.entry];
        const entry = entries[task.entry];
        if (p === undefined || entry === undefined) return;
        const at = now().toISOString();
        p.startedAt ??= at;
        const spawn = await runSpawn(probe, task.spec, task.arm, task.index, options);
        const end = now().toISOString();
        // Journaled before it counts: a record that cannot be written later loses no spawn.
        await journal?.spawn({ key: task.key, startedAt: at, finishedAt: end, spawn });
        spawnTimes.set(task.key, { startedAt: at, finishedAt: end });
        p.finishedAt = end;
        p.byArm.set(task.arm.id, [...(p.byArm.get(task.arm.id) ?? []), spawn]);
        options.onSpawn?.(entry.check.loaded.protocol.id, ++count, todo.length, task.arm.id);
        const armLeft = (p.armsLeft.get(task.arm.id) ?? 1) - 1;
        p.armsLeft.set(task.arm.id, armLeft);
        if (armLeft === 0) options.onArm?.(armDone(entry, task.arm.id, p, options.shard));
        if (--p.left === 0) finish(task.entry);
      },
      options.signal,
    );
  } finally {
    // A record already being written is finished, never left half-written.
    await writing.catch(() => undefined);
  }
  await writing;
  options.signal?.throwIfAborted();
  await journal?.remove();
  if (options.shard === undefined) {
    const ordered = [...runs].sort(([a], [b]) => a - b).map(([, run]) => run);
    return { runs: ordered, shard: null, skipped: plan.skipped };
  }
  const shardFile: ShardFile = {
    schema: "witness.shard/1",
    plan: plan.plan,
    runId: options.runId ?? null,
    shard: options.shard,
    total: plan.spawns.length,
    machine,
    startedAt: started,
    finishedAt: now().toISOString(),
    entries: progress.map((p, e) => ({
      key: entryKey(entries[e] as RunEntry),
      header: p.frame.header,
      arms: p.frame.arms,
      selection: p.frame.selection,
      counting: [...(entries[e] as RunEntry).check.counting],
    })),
    spawns: plan.mine.map((task) => {
      const record = progress[task.entry]?.byArm
        .get(task.arm.id)
        ?.find((s) => s.index === task.index) as SpawnRecord;
      return {
        key: task.key,
        entry: task.entry,
        arm: task.arm.id,
        index: task.index,
        ...(spawnTimes.get(task.key) ?? { startedAt: started, finishedAt: started }),
        record,
      };
    }),
  };
  const file = await writeShardFile(out, shardFile);
  return { runs: [], shard: { file, spawns: plan.mine.length }, skipped: plan.skipped };
}

// An arm whose `managed` setting this machine cannot honour refuses the whole run (exit 2) before
// anything is installed: a spawn refused later would only be a fault.
async function refuseManagedArms(entries: readonly RunEntry[], root?: string): Promise<void> {
  const asking = entries.flatMap((e) =>
    e.arms
      .filter((a) => (a.fixture.managed ?? "record") !== "record")
      .map((a) => ({ entry: e, arm: a })),
  );
  if (asking.length === 0) return;
  const { checkManaged } = await import("../probes/run-probe.js");
  for (const { entry, arm } of asking) {
    try {
      await checkManaged(
        entry.cli.name,
        arm.fixture.managed ?? "record",
        root === undefined ? {} : { root },
      );
    } catch (error) {
      const { id } = entry.check.loaded.protocol;
      throw new UsageError(`${entry.check.loaded.file}: arm ${id}/${arm.id}: ${firstLine(error)}`);
    }
  }
}

function armDone(
  entry: RunEntry,
  arm: string,
  p: EntryProgress,
  shard: Shard | undefined,
): ArmDone {
  const spawns = [...(p.byArm.get(arm) ?? [])].sort((a, b) => a.index - b.index);
  const { id, slug } = entry.check.loaded.protocol;
  const base = {
    protocol: id,
    slug,
    cli: `${entry.cli.name}@${entry.cli.version}`,
    arm,
    statuses: spawns.map((s) => s.status),
  };
  if (shard !== undefined) return { ...base, verdict: null, reasons: [] };
  const record = assembleRecord(
    { ...p.frame, arms: p.frame.arms.filter((a) => a.id === arm) },
    p.byArm,
    { startedAt: "", finishedAt: "" },
  );
  const a = record.arms[0];
  return { ...base, verdict: a?.verdict ?? "inconclusive", reasons: a?.reasons ?? [] };
}

/** Runs the protocols and writes their records (a whole run; `runPlanned` for shards). */
export async function runProtocols(options: RunProtocolsOptions): Promise<ProtocolRun[]> {
  return (await runPlanned(options)).runs;
}

// `--resume <journal>`: the run's own options, from the journal's header; nothing else may be named.
async function resumeOptions(given: RunProtocolsOptions & { resume?: string }) {
  const cwd = given.cwd ?? process.cwd();
  const named = [
    given.all === true || (given.files ?? []).length > 0 ? "protocols or --all" : null,
    given.clis === undefined ? null : "--cli",
    given.arms === undefined ? null : "--arm",
    given.rerun === undefined ? null : "--rerun",
    given.shard === undefined ? null : "--shard",
    given.spawns === undefined ? null : "--spawns",
    given.out === undefined ? null : "--out",
  ].filter((x) => x !== null);
  if (named.length > 0)
    throw new UsageError(
      `--resume finishes the run its journal holds, as it was planned: drop ${named.join(", ")}`,
    );
  const read = await readJournal(resolve(cwd, given.resume ?? ""));
  const { header } = read;
  const options: RunProtocolsOptions = {
    ...given,
    cwd: header.cwd,
    files: header.files,
    all: false,
    out: header.out,
    ...(header.spawns === undefined ? {} : { spawns: header.spawns }),
    ...(header.clis === undefined ? {} : { clis: header.clis.map((c) => cliRefSchema.parse(c)) }),
    ...(header.arms === undefined ? {} : { arms: header.arms }),
  };
  return { ...read, options };
}

// `witness run` as a pipeline of named steps, for many protocols (runPlanned, runProtocols) and for
// one (runProtocol): resume (run-resume.ts), plan (run-plan.ts), check the machine and install
// (run-install.ts), spawn and judge (run-spawns.ts), write (run-write.ts).
import { resolve } from "node:path";

import { InternalError } from "../core/errors.js";
import type { LockCheck } from "../prereg/verify.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import { createJournal, type Journal, journalDir } from "./journal.js";
import type { InstalledCli, MeasurementRecord } from "./record.js";
import {
  installedVersions,
  installVersions,
  refuseManagedArms,
  versionKey,
} from "./run-install.js";
import type { ProtocolRun, RunOutcome, RunProtocolsOptions } from "./run-options.js";
import { planRun, type RunPlan } from "./run-plan.js";
import { refuseChangedPlan, type ResumedRun, resumeRun } from "./run-resume.js";
import { keepJournaled, type RunProgress, spawnAll, startProgress } from "./run-spawns.js";
import { recordWriter, writeShard } from "./run-write.js";
import {
  assembleRecord,
  defaultProbe,
  type ProbeCallOptions,
  type ProbeFn,
  recordFrame,
  thisMachine,
} from "./runner.js";
import { refuseExistingShard } from "./shard-file.js";
import { planSpawns, type RunEntry } from "./spawn-plan.js";
import { reuseFor, type SpawnReuse } from "./spawn-reuse.js";
import { witnessBuild } from "./witness-build.js";
import { ensureWritableDir } from "./write-record.js";

export type {
  ArmDone,
  FactsFn,
  InstallFn,
  ProtocolRun,
  RunOutcome,
  RunProtocolsOptions,
} from "./run-options.js";
export { type PlannedRun, planRun, planRuns, type RunPlan } from "./run-plan.js";

// Where the records go, and for a shard that its part is not there already (exit 2 before work).
async function checkOutput(plan: RunPlan, options: RunProtocolsOptions): Promise<void> {
  await ensureWritableDir(plan.out);
  if (options.shard !== undefined)
    await refuseExistingShard(plan.out, options.shard.index, options.shard.count);
}

// The progress of the run, each entry's frame holding what its record states besides its spawns:
// the install that ran, the witness that ran it, this machine.
async function startRun(
  plan: RunPlan,
  options: RunProtocolsOptions,
  now: () => Date,
): Promise<{
  progress: RunProgress;
  machine: MeasurementRecord["machine"];
  reuse: SpawnReuse | null;
}> {
  const installed = await installedVersions(plan.entries, options.facts, options.cacheDir);
  const witness = await witnessBuild();
  const machine = thisMachine();
  const { reuse } = await reuseFor({
    entries: plan.entries,
    installed: (entry) => installed.get(versionKey(entry.cli)),
    witness,
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    fresh: options.fresh,
    keep: options.keep,
    injectedProbe: options.probe !== undefined,
    now: now(),
  });
  const progress = startProgress(plan.entries, plan.mine, (entry) => {
    const facts = installed.get(versionKey(entry.cli));
    return recordFrame(entry, {
      ...(facts === undefined ? {} : { installed: facts }),
      witness,
      machine,
    });
  });
  return { progress, machine, reuse };
}

// The run's journal: the resumed one, a new one where `journalDir` asks for it, none for a shard.
async function runJournal(
  plan: RunPlan,
  options: RunProtocolsOptions,
  resumed: ResumedRun | null,
  now: () => Date,
): Promise<Journal | null> {
  if (options.shard !== undefined || (options.journalDir === undefined && resumed === null))
    return null;
  if (resumed !== null) return resumed.journal;
  const { entries } = plan;
  return createJournal(
    {
      type: "run",
      schema: "witness.journal/1",
      plan: plan.plan,
      cwd: plan.cwd,
      out: plan.out,
      files: [...new Set(entries.map((e) => resolve(plan.cwd, e.check.loaded.file)))],
      ...(options.spawns === undefined ? {} : { spawns: options.spawns }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
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
  );
}

/**
 * Runs a plan: installs every CLI version first, then every spawn of every protocol through one
 * pool of `jobs`, writing each protocol's record as its last spawn finishes (or, for a shard, one
 * partial result at the end).
 */
export async function runPlanned(given: RunProtocolsOptions): Promise<RunOutcome> {
  const resumed = given.resume === undefined ? null : await resumeRun(given);
  const options = resumed?.options ?? given;
  const plan = await planRun(options);
  if (resumed !== null) refuseChangedPlan(resumed, plan);
  await checkOutput(plan, options);
  if (plan.entries.length === 0) {
    for (const line of plan.skipped) options.onSkip?.(line);
    return { runs: [], shard: null, skipped: plan.skipped };
  }
  await refuseManagedArms(plan.entries, options.managedRoot);
  // Every version before the first spawn: a failed install stops the run with nothing written.
  await installVersions(plan.entries, options.install, options.cacheDir);
  for (const line of plan.skipped) options.onSkip?.(line);
  const now = options.now ?? (() => new Date());
  const { progress, machine, reuse } = await startRun(plan, options, now);
  const todo = keepJournaled(plan.mine, progress, resumed?.spawns ?? new Map());
  const journal = await runJournal(plan, options, resumed, now);
  if (journal !== null) options.onJournal?.(journal.file);
  const probe = options.probe ?? (await defaultProbe());
  const step = { plan, progress, journal, written: resumed?.written ?? null, now };
  const writer = recordWriter(step, options);
  const startedAt = now().toISOString();
  // An entry whose every spawn was journaled is written first.
  progress.entries.forEach((p, e) => {
    if (p.left === 0) writer.finish(e);
  });
  const spawning = {
    entries: plan.entries,
    probe,
    journal,
    now,
    onEntryDone: writer.finish,
    reuse,
  };
  try {
    await spawnAll(todo, progress, spawning, options);
  } finally {
    // A record already being written is finished, never left half-written.
    await writer.written().catch(() => undefined);
  }
  await writer.written();
  options.signal?.throwIfAborted();
  await journal?.remove();
  if (options.shard === undefined)
    return { runs: writer.runs(), shard: null, skipped: plan.skipped };
  const shard = await writeShard(
    { ...step, machine, startedAt },
    { ...options, shard: options.shard },
  );
  return { runs: [], shard, skipped: plan.skipped };
}

/** Runs the protocols and writes their records (a whole run; `runPlanned` for shards). */
export async function runProtocols(options: RunProtocolsOptions): Promise<ProtocolRun[]> {
  return (await runPlanned(options)).runs;
}

/** Options of `runProtocol`. */
export interface RunProtocolOptions extends ProbeCallOptions {
  /** The probe cell (default: `runProbe` from probes/, imported on first use). */
  probe?: ProbeFn;
  /** Another version of the protocol's CLI to run (a maintainer's drift check); never another CLI. */
  cli?: CliRef;
  /** Spawns per arm, overriding the protocol's. */
  spawns?: number;
  /** Spawns at once. */
  jobs?: number;
  /** Called after each spawn, for progress. */
  onSpawn?: (done: number, total: number, arm: string) => void;
  now?: () => Date;
  /** The install that ran, as the record states it (the vendor cache's facts). */
  installed?: InstalledCli;
  /** Spawn everything, taking nothing from the spawn cache. */
  fresh?: boolean;
  /** A spawn's time limit (`--timeout`), stated in the record. */
  timeoutMs?: number;
}

/**
 * Runs every arm × spawn of one locked protocol through the same spawn step and decides the
 * verdicts; writes nothing, installs nothing (`witness bisect` does both around it).
 */
export async function runProtocol(
  check: LockCheck,
  options: RunProtocolOptions = {},
): Promise<MeasurementRecord> {
  const { loaded } = check;
  const protocol = loaded.protocol;
  const probe = options.probe ?? (await defaultProbe());
  const cli = options.cli ?? protocol.cli;
  // Another CLI's version would launch this protocol's argv on the wrong binary.
  if (cli.name !== protocol.cli.name)
    throw new InternalError(
      `${loaded.file}: protocol ${protocol.id} runs ${protocol.cli.name}, not ${cli.name}`,
    );
  const entry: RunEntry = {
    check,
    cli,
    spawns: options.spawns ?? protocol.spawns,
    arms: protocol.arms,
    selection: null,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const spawns = planSpawns([entry]);
  const { installed } = options;
  const progress = startProgress([entry], spawns, (e) =>
    recordFrame(e, installed === undefined ? {} : { installed }),
  );
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const { reuse } = await reuseFor({
    entries: [entry],
    installed: () => installed,
    witness: await witnessBuild(),
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    fresh: options.fresh,
    keep: options.keep,
    injectedProbe: options.probe !== undefined,
    now: now(),
  });
  const spawning = {
    entries: [entry],
    probe,
    journal: null,
    now,
    onEntryDone: () => undefined,
    reuse,
  };
  const { onSpawn } = options;
  await spawnAll(spawns, progress, spawning, {
    ...options,
    onSpawn: onSpawn && ((_protocol, done, total, arm) => onSpawn(done, total, arm)),
  });
  const [p] = progress.entries;
  if (p === undefined) throw new InternalError(`${loaded.file}: no entry to record`);
  return assembleRecord(p.frame, p.byArm, { startedAt, finishedAt: now().toISOString() });
}

import { arch, cpus, platform, release } from "node:os";

import { firstLine } from "../core/error-text.js";
import { InternalError } from "../core/errors.js";
import { evaluatePredicate } from "../prereg/evaluate.js";
import { predicateLabel } from "../prereg/predicate.js";
import type { Arm } from "../prereg/protocol.js";
import type { LockCheck } from "../prereg/verify.js";
import {
  type Observation,
  observationSchema,
  redactObservation,
} from "../probes/contracts/observation.js";
import type { CliRef, ProbeSpec } from "../probes/contracts/probe-spec.js";
import type { Runtime } from "../probes/contracts/runtime.js";
import { runPool } from "./pool.js";
import type {
  ArmRecord,
  InstalledCli,
  MeasurementRecord,
  Selection,
  Shards,
  SpawnRecord,
} from "./record.js";
import { planSpawns, type RunEntry } from "./spawn-plan.js";
import { armVerdict, overallVerdict, spawnStatus, tally, VERDICT_RULE } from "./verdict.js";
import type { WitnessBuild } from "./witness-build.js";

/** What the runner passes to the probe cell besides the spec. */
export interface ProbeCallOptions {
  signal?: AbortSignal;
  keep?: boolean;
  cacheDir?: string;
  /** Told where a kept cell is, when `keep` is set. */
  onCellKept?: (dir: string) => void;
}

/** The probe cell's entry point: one spawn of a real CLI, observed. */
export type ProbeFn = (spec: ProbeSpec, options: ProbeCallOptions) => Promise<Observation>;

/** Options of `runProtocol`. */
export interface RunProtocolOptions {
  /** The probe cell (default: `runProbe` from probes/, imported on first use). */
  probe?: ProbeFn;
  /** Another version of the protocol's CLI to run (a maintainer's drift check); never another CLI. */
  cli?: CliRef;
  /** Spawns per arm, overriding the protocol's. */
  spawns?: number;
  /** Spawns at once. */
  jobs?: number;
  keep?: boolean;
  cacheDir?: string;
  onCellKept?: (dir: string) => void;
  signal?: AbortSignal;
  /** Called after each spawn, for progress. */
  onSpawn?: (done: number, total: number, arm: string) => void;
  now?: () => Date;
  /** The install that ran, as the record states it (the vendor cache's facts). */
  installed?: InstalledCli;
}

/** The probe cell's `runProbe`, imported on first use. */
export async function defaultProbe(): Promise<ProbeFn> {
  // Lazy: the probe cell (servers, vendor cache) loads only when a run needs it.
  const { runProbe } = await import("../probes/index.js");
  return runProbe;
}

/** One spawn through the probe cell, judged against the arm's predicates (a probe error is a fault). */
export async function runSpawn(
  probe: ProbeFn,
  spec: ProbeSpec,
  arm: Arm,
  index: number,
  options: Pick<RunProtocolOptions, "signal" | "keep" | "cacheDir" | "onCellKept">,
): Promise<SpawnRecord> {
  let observation: Observation;
  try {
    const raw = await probe(spec, {
      signal: options.signal,
      keep: options.keep,
      cacheDir: options.cacheDir,
      onCellKept: options.onCellKept,
    });
    observation = observationSchema.parse(raw);
  } catch (error) {
    options.signal?.throwIfAborted();
    return {
      index,
      status: "fault",
      faults: [`probe failed: ${firstLine(error)}`],
      observation: null,
      predicates: [],
    };
  }
  // The probe cell is injectable: redact again (a second pass changes nothing already redacted).
  observation = redactObservation(observation);
  const predicates = arm.expect.map((p) => ({
    label: predicateLabel(p),
    ...evaluatePredicate(p, observation),
  }));
  // A spawn of another version than the one asked for is not evidence about the asked one.
  const faults =
    observation.cli.version === spec.cli.version
      ? observation.faults
      : [
          ...observation.faults,
          `ran ${observation.cli.name}@${observation.cli.version}, not ${spec.cli.version}`,
        ];
  return {
    index,
    status: spawnStatus(
      faults,
      predicates.map((p) => p.pass),
    ),
    faults,
    observation,
    predicates,
  };
}

/** What a record says besides its arms: the protocol, the CLI, the machine, the witness. */
export type RecordHeader = Omit<
  MeasurementRecord,
  "arms" | "verdict" | "startedAt" | "finishedAt" | "isolation" | "selection" | "shards"
>;

/** A record before its spawns: the header, and per arm its id, description and predicate labels. */
export interface RecordFrame {
  header: RecordHeader;
  arms: { id: string; description: string; labels: string[]; workspaceTrusted?: boolean }[];
  selection: Selection | null;
}

/** The machine a run is on, as a record names it. */
export function thisMachine(): MeasurementRecord["machine"] {
  return {
    platform: platform(),
    release: release(),
    arch: arch(),
    node: process.version,
    cpus: cpus().length,
  };
}

/** The frame of `entry`'s record (what the run knows before any spawn). */
export function recordFrame(
  entry: RunEntry,
  extras: {
    installed?: InstalledCli;
    witness?: WitnessBuild;
    machine?: MeasurementRecord["machine"];
  } = {},
): RecordFrame {
  const { loaded, lock } = entry.check;
  if (lock === null) throw new InternalError(`${loaded.file}: cannot run an unlocked protocol`);
  const protocol = loaded.protocol;
  return {
    header: {
      schema: "witness.record/1",
      protocol: {
        id: protocol.id,
        slug: protocol.slug,
        title: protocol.title,
        adr: protocol.adr,
        hypothesis: protocol.hypothesis,
        file: lock.file,
        canonicalHash: loaded.canonicalHash,
        bytesHash: loaded.bytesHash,
        lockCommit: lock.commit,
        lockedAt: lock.lockedAt,
      },
      cli: {
        name: entry.cli.name,
        version: entry.cli.version,
        versionsRun: [],
        ...(extras.installed === undefined ? {} : { installed: extras.installed }),
      },
      ...(extras.witness === undefined ? {} : { witness: extras.witness }),
      machine: extras.machine ?? thisMachine(),
      spawnsPerArm: entry.spawns,
      verdictRule: VERDICT_RULE,
    },
    arms: entry.arms.map((arm) => ({
      id: arm.id,
      description: arm.description,
      labels: arm.expect.map(predicateLabel),
      workspaceTrusted: arm.fixture.trust,
    })),
    selection: entry.selection,
  };
}

/** The record of a frame and its spawns (by arm id, in spawn order): verdicts, tallies, facts. */
export function assembleRecord(
  frame: RecordFrame,
  spawnsByArm: ReadonlyMap<string, readonly SpawnRecord[]>,
  times: { startedAt: string; finishedAt: string },
  shards?: Shards,
): MeasurementRecord {
  const arms: ArmRecord[] = frame.arms.map((arm) => {
    const spawns = [...(spawnsByArm.get(arm.id) ?? [])].sort((a, b) => a.index - b.index);
    return {
      id: arm.id,
      description: arm.description,
      ...(arm.workspaceTrusted === undefined ? {} : { workspaceTrusted: arm.workspaceTrusted }),
      ...armVerdict(spawns),
      tally: tally(arm.labels, spawns),
      spawns,
    };
  });
  const observations = arms.flatMap((a) =>
    a.spawns.flatMap((s) => (s.observation === null ? [] : [s.observation])),
  );
  const { header } = frame;
  return {
    schema: header.schema,
    protocol: header.protocol,
    cli: {
      ...header.cli,
      versionsRun: [...new Set(observations.map((o) => o.cli.version))].sort(),
      ...runtimesOf(observations),
    },
    ...(header.witness === undefined ? {} : { witness: header.witness }),
    machine: header.machine,
    isolation: [...new Set(observations.map((o) => o.isolation))].sort(),
    startedAt: times.startedAt,
    finishedAt: times.finishedAt,
    spawnsPerArm: header.spawnsPerArm,
    verdictRule: header.verdictRule,
    arms,
    verdict: overallVerdict(arms),
    ...(frame.selection === null ? {} : { selection: frame.selection }),
    ...(shards === undefined ? {} : { shards }),
  };
}

// The distinct runtimes the spawns ran on (none recorded: no field, as in older records).
function runtimesOf(observations: readonly Observation[]): { runtimes?: Runtime[] } {
  const seen = new Map<string, Runtime>();
  for (const o of observations) if (o.runtime) seen.set(JSON.stringify(o.runtime), o.runtime);
  return seen.size === 0 ? {} : { runtimes: [...seen.values()] };
}

/** Runs every arm × spawn of a locked protocol and decides the verdicts; writes nothing. */
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
  };
  const frame = recordFrame(
    entry,
    options.installed === undefined ? {} : { installed: options.installed },
  );
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const tasks = planSpawns([entry]);
  let done = 0;
  const results = await runPool(
    tasks,
    options.jobs ?? 1,
    async (task) => {
      const spawn = await runSpawn(probe, task.spec, task.arm, task.index, options);
      options.onSpawn?.(++done, tasks.length, task.arm.id);
      return spawn;
    },
    options.signal,
  );
  const byArm = new Map<string, SpawnRecord[]>();
  results.forEach((spawn, i) => {
    const id = tasks[i]?.arm.id ?? "";
    byArm.set(id, [...(byArm.get(id) ?? []), spawn]);
  });
  return assembleRecord(frame, byArm, { startedAt, finishedAt: now().toISOString() });
}

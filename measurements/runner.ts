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
import { type CliRef, type ProbeSpec, probeSpecSchema } from "../probes/contracts/probe-spec.js";
import { runPool } from "./pool.js";
import type { ArmRecord, MeasurementRecord, SpawnRecord } from "./record.js";
import { armVerdict, overallVerdict, spawnStatus, tally, VERDICT_RULE } from "./verdict.js";

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
}

async function defaultProbe(): Promise<ProbeFn> {
  // Lazy: the probe cell (servers, vendor cache) loads only when a run needs it.
  const { runProbe } = await import("../probes/index.js");
  return runProbe;
}

async function runSpawn(
  probe: ProbeFn,
  spec: ProbeSpec,
  arm: Arm,
  index: number,
  options: RunProtocolOptions,
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

/** Runs every arm × spawn of a locked protocol and decides the verdicts; writes nothing. */
export async function runProtocol(
  check: LockCheck,
  options: RunProtocolOptions = {},
): Promise<MeasurementRecord> {
  const { loaded, lock } = check;
  if (lock === null) throw new InternalError(`${loaded.file}: cannot run an unlocked protocol`);
  const protocol = loaded.protocol;
  const probe = options.probe ?? (await defaultProbe());
  const spawns = options.spawns ?? protocol.spawns;
  const cli = options.cli ?? protocol.cli;
  // Another CLI's version would launch this protocol's argv on the wrong binary.
  if (cli.name !== protocol.cli.name)
    throw new InternalError(
      `${loaded.file}: protocol ${protocol.id} runs ${protocol.cli.name}, not ${cli.name}`,
    );
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const tasks = protocol.arms.flatMap((arm) =>
    Array.from({ length: spawns }, (_, i) => ({
      arm,
      index: i + 1,
      spec: probeSpecSchema.parse({
        cli,
        fixture: arm.fixture,
        script: arm.script,
        launch: arm.launch,
      }),
    })),
  );
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
  const arms: ArmRecord[] = protocol.arms.map((arm) => {
    const armSpawns = results.filter((_, i) => tasks[i]?.arm === arm);
    return {
      id: arm.id,
      description: arm.description,
      workspaceTrusted: arm.fixture.trust,
      ...armVerdict(armSpawns),
      tally: tally(arm.expect.map(predicateLabel), armSpawns),
      spawns: armSpawns,
    };
  });
  const observations = results.flatMap((s) => (s.observation === null ? [] : [s.observation]));
  return {
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
      name: cli.name,
      version: cli.version,
      versionsRun: [...new Set(observations.map((o) => o.cli.version))].sort(),
    },
    machine: {
      platform: platform(),
      release: release(),
      arch: arch(),
      node: process.version,
      cpus: cpus().length,
    },
    isolation: [...new Set(observations.map((o) => o.isolation))].sort(),
    startedAt,
    finishedAt: now().toISOString(),
    spawnsPerArm: spawns,
    verdictRule: VERDICT_RULE,
    arms,
    verdict: overallVerdict(arms),
  };
}

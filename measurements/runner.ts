import { arch, cpus, platform, release } from "node:os";

import { firstLine } from "../core/error-text.js";
import { InternalError } from "../core/errors.js";
import { evaluatePredicate } from "../prereg/evaluate.js";
import { predicateLabel } from "../prereg/predicate.js";
import type { Arm } from "../prereg/protocol.js";
import {
  type Observation,
  observationSchema,
  redactObservation,
} from "../probes/contracts/observation.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import type { Runtime } from "../probes/contracts/runtime.js";
import { containmentStatements } from "../probes/isolation/sandbox-report.js";
import { agreementsOf, type ArmAgreements, judgeAgreements } from "./agreement-pass.js";
import type {
  ArmRecord,
  InstalledCli,
  MeasurementRecord,
  Selection,
  Shards,
  SpawnRecord,
} from "./record.js";
import type { RunEntry } from "./spawn-plan.js";
import {
  armVerdict,
  countedFaults,
  overallVerdict,
  spawnStatus,
  tally,
  VERDICT_RULE,
} from "./verdict.js";
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
  options: ProbeCallOptions,
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
  const observed = countedFaults(observation.faults, observation, arm.expect);
  const faults =
    observation.cli.version === spec.cli.version
      ? observed
      : [
          ...observed,
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
  | "arms"
  | "verdict"
  | "startedAt"
  | "finishedAt"
  | "isolation"
  | "containment"
  | "selection"
  | "shards"
>;

/** A record before its spawns: the header, and per arm its id, description and predicate labels. */
export interface RecordFrame {
  header: RecordHeader;
  arms: {
    id: string;
    description: string;
    labels: string[];
    workspaceTrusted?: boolean;
    /** Its `agrees-with` predicates, judged once every spawn is in (absent: none). */
    agreements?: ArmAgreements["agreements"];
  }[];
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
        ...(protocol.adr === undefined ? {} : { adr: protocol.adr }),
        ...(protocol.decision === undefined ? {} : { decision: protocol.decision }),
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
      ...(entry.timeoutMs === undefined ? {} : { spawnTimeoutMs: entry.timeoutMs }),
      verdictRule: VERDICT_RULE,
    },
    arms: entry.arms.map((arm) => ({
      id: arm.id,
      description: arm.description,
      labels: arm.expect.map(predicateLabel),
      workspaceTrusted: arm.fixture.trust,
      ...(agreementsOf(arm.expect).length === 0 ? {} : { agreements: agreementsOf(arm.expect) }),
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
  const settled = judgeAgreements(
    frame.arms.flatMap((a) =>
      a.agreements === undefined ? [] : [{ arm: a.id, agreements: a.agreements }],
    ),
    spawnsByArm,
  );
  const arms: ArmRecord[] = frame.arms.map((arm) => {
    const spawns = [...(settled.get(arm.id) ?? [])].sort((a, b) => a.index - b.index);
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
    containment: containmentStatements(observations),
    startedAt: times.startedAt,
    finishedAt: times.finishedAt,
    spawnsPerArm: header.spawnsPerArm,
    ...(header.spawnTimeoutMs === undefined ? {} : { spawnTimeoutMs: header.spawnTimeoutMs }),
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

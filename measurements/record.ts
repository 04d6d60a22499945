import { z } from "zod";

import { decisionSchema } from "../prereg/decision.js";
import { observationSchema } from "../probes/contracts/observation.js";
import { cliRefSchema, probeCliNameSchema } from "../probes/contracts/probe-spec.js";
import { runtimeSchema } from "../probes/contracts/runtime.js";
import { witnessBuildSchema } from "./witness-build.js";

/** A verdict on an arm or on a whole protocol. */
export const verdictSchema = z.enum(["confirmed", "refuted", "inconclusive"]);
export type Verdict = z.infer<typeof verdictSchema>;

/** How one spawn went: every predicate held, at least one failed, or it is unfit as evidence. */
export const spawnStatusSchema = z.enum(["as-expected", "contrary", "fault"]);
export type SpawnStatus = z.infer<typeof spawnStatusSchema>;

/** One predicate evaluated on one spawn. */
export const predicateOutcomeSchema = z.object({
  label: z.string(),
  pass: z.boolean(),
  explanation: z.string(),
});
export type PredicateOutcome = z.infer<typeof predicateOutcomeSchema>;

/** The run a spawn first ran in, as a reused spawn names it (measurements/spawn-cache.ts). */
export const spawnOriginSchema = z.object({
  /** The run's id (`witness run` makes one per process: its start time and a random part). */
  run: z.string(),
  /** The spawn's own key within that run (`0001@claude-code@2.1.332/arm/1`). */
  spawn: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** The hash of the inputs the spawn was filed under (spawn-key.ts), equal to this run's. */
  inputs: z.string(),
});
export type SpawnOrigin = z.infer<typeof spawnOriginSchema>;

/** One spawn: its observation (null when the probe itself failed) and its predicates. */
export const spawnRecordSchema = z.object({
  index: z.number().int(),
  status: spawnStatusSchema,
  /** Why the spawn is unfit as evidence: the observation's faults, or the probe's error. */
  faults: z.array(z.string()),
  observation: observationSchema.nullable(),
  predicates: z.array(predicateOutcomeSchema),
  /**
   * Set when this spawn was not run again but taken from the spawn cache: the run it ran in and
   * the hash of its inputs, equal to this run's (absent: it ran in this run).
   */
  reused: spawnOriginSchema.optional(),
});
export type SpawnRecord = z.infer<typeof spawnRecordSchema>;

/** One arm's spawns and verdict. */
export const armRecordSchema = z.object({
  id: z.string(),
  description: z.string(),
  /**
   * Whether the cell wrote the CLI's own trust entry for the workspace (a fresh install has none);
   * absent in records written before it was recorded.
   */
  workspaceTrusted: z.boolean().optional(),
  verdict: verdictSchema,
  reasons: z.array(z.string()),
  /** Per predicate: how many spawns passed it. */
  tally: z.array(z.object({ label: z.string(), passed: z.number().int(), of: z.number().int() })),
  spawns: z.array(spawnRecordSchema),
});
export type ArmRecord = z.infer<typeof armRecordSchema>;

/** The CLI install that ran, as the vendor cache holds it (records written before it lack it). */
export const installedCliSchema = z.object({
  pkg: z.string(),
  /** The binary the spawns started. */
  bin: z.string(),
  /** That binary with its symlinks resolved. */
  resolvedBin: z.string(),
  /** npm's integrity of the CLI's package (`sha512-…`), from the install's lockfile. */
  integrity: z.string().nullable(),
  packages: z.array(
    z.object({ name: z.string(), version: z.string(), integrity: z.string().nullable() }),
  ),
  /** Set when the vendor cache entry was a marked stand-in, not npm's install: why. Never evidence. */
  standIn: z.string().optional(),
});
export type InstalledCli = z.infer<typeof installedCliSchema>;

/** A run of some arms only (`--arm`, `--rerun`): not evidence of the whole protocol. */
export const selectionSchema = z.object({
  arms: z.array(z.string()),
  /** Why these arms: `--arm`, or the record whose inconclusive arms were re-run. */
  reason: z.string(),
});
export type Selection = z.infer<typeof selectionSchema>;

/** A record merged from shards (`witness merge`): where each part ran. */
export const shardsSchema = z.object({
  count: z.number().int(),
  runId: z.string().nullable(),
  plan: z.string(),
  parts: z.array(
    z.object({
      index: z.number().int(),
      machine: z.record(z.string(), z.unknown()),
      startedAt: z.string(),
      finishedAt: z.string(),
      spawns: z.number().int(),
    }),
  ),
});
export type Shards = z.infer<typeof shardsSchema>;

/** A measurement record (`docs/measurements/NNNN-slug-cli-version.json`). */
export const recordSchema = z.object({
  schema: z.literal("witness.record/1"),
  // id, slug, CLI name and version make the record's file name: each as a protocol allows it, so
  // a record, shard or journal read back can never name a file outside its directory.
  protocol: z.object({
    id: z.string().regex(/^\d{4}$/, "expected a four-digit id"),
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a kebab-case slug"),
    title: z.string(),
    /** The witness ADR the protocol gates; absent when it gates a `decision` instead. */
    adr: z.string().optional(),
    decision: decisionSchema.optional(),
    hypothesis: z.string(),
    /** The protocol file, relative to the repository root. */
    file: z.string(),
    canonicalHash: z.string(),
    bytesHash: z.string(),
    lockCommit: z.string(),
    lockedAt: z.string(),
  }),
  cli: z.object({
    name: probeCliNameSchema,
    /** The version the protocol registered. */
    version: cliRefSchema.shape.version,
    /** The versions the spawns actually reported. */
    versionsRun: z.array(z.string()),
    /** The install that ran (absent in records written before witness recorded it). */
    installed: installedCliSchema.optional(),
    /** Every runtime the spawns ran the CLI on (absent in records written before it was recorded). */
    runtimes: z.array(runtimeSchema).optional(),
  }),
  /** The witness that wrote the record (absent in records written before it was recorded). */
  witness: witnessBuildSchema.optional(),
  machine: z.object({
    platform: z.string(),
    release: z.string(),
    arch: z.string(),
    node: z.string(),
    cpus: z.number().int(),
  }),
  /** How the spawns were kept off the network, as the cell reported it. */
  isolation: z.array(z.string()),
  /**
   * What held around the spawns' CLIs (identity, host capabilities, /proc, files), each distinct
   * statement once (absent in records written before it was measured).
   */
  containment: z.array(z.string()).optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  spawnsPerArm: z.number().int(),
  /** A spawn's time limit when the run set one (`witness run --timeout`); absent: 60 s. */
  spawnTimeoutMs: z.number().int().positive().optional(),
  verdictRule: z.string(),
  arms: z.array(armRecordSchema),
  verdict: verdictSchema,
  /** Set when only some arms ran; such a record is not evidence of the whole protocol. */
  selection: selectionSchema.optional(),
  /** Set on a record `witness merge` assembled from shards. */
  shards: shardsSchema.optional(),
});
export type MeasurementRecord = z.infer<typeof recordSchema>;

/** The largest record file read back (128 MiB: about 18 000 spawns at today's size). */
export const MAX_RECORD_BYTES = 128 * 1024 * 1024;

// A run as data: which protocol runs on which version, which of its arms, and every spawn that
// makes it up, in one order that every machine computes alike (shards split that order).
import { canonicalHash } from "../core/canonical.js";
import { UsageError } from "../core/errors.js";
import type { Arm } from "../prereg/protocol.js";
import type { LockCheck } from "../prereg/verify.js";
import { type CliRef, type ProbeSpec, probeSpecSchema } from "../probes/contracts/probe-spec.js";
import type { Selection } from "./record.js";

/** One protocol on one version, with the arms that run and how many spawns each. */
export interface RunEntry {
  check: LockCheck;
  cli: CliRef;
  spawns: number;
  /** The arms that run, in the protocol's order. */
  arms: Arm[];
  /** Set when only some arms run. */
  selection: Selection | null;
  /** A spawn's time limit when the run sets one (`--timeout`); else the probe's default. */
  timeoutMs?: number;
}

/** One spawn of a run: which entry and arm, its index within the arm, and what to launch. */
export interface PlannedSpawn {
  /** `0001@claude-code@2.1.332/arm-id/2`: the same on every machine. */
  key: string;
  /** Index into the run's entries. */
  entry: number;
  arm: Arm;
  /** 1-based, within the arm. */
  index: number;
  spec: ProbeSpec;
}

/** Which part of a run a machine takes: `--shard 2/3`. */
export interface Shard {
  index: number;
  count: number;
}

/** The most shards a run may be split into. */
export const MAX_SHARDS = 256;

/** Parses `i/n` (1 ≤ i ≤ n ≤ MAX_SHARDS); anything else is a UsageError naming the form. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(index) || !Number.isSafeInteger(count))
    throw new UsageError(`--shard "${text}": expected <i>/<n>, e.g. 2/3`);
  if (count < 1 || count > MAX_SHARDS)
    throw new UsageError(`--shard "${text}": expected n from 1 to ${MAX_SHARDS}; got ${count}`);
  if (index < 1 || index > count)
    throw new UsageError(`--shard "${text}": expected i from 1 to ${count}; got ${index}`);
  return { index, count };
}

/** The key of one entry: protocol id and the version it runs on. */
export function entryKey(entry: RunEntry): string {
  return `${entry.check.loaded.protocol.id}@${entry.cli.name}@${entry.cli.version}`;
}

/** Every spawn of the run: entries in order, arms in protocol order, spawns 1..n. */
export function planSpawns(entries: readonly RunEntry[]): PlannedSpawn[] {
  return entries.flatMap((entry, e) =>
    entry.arms.flatMap((arm) =>
      Array.from({ length: entry.spawns }, (_, i) => ({
        key: `${entryKey(entry)}/${arm.id}/${i + 1}`,
        entry: e,
        arm,
        index: i + 1,
        spec: probeSpecSchema.parse({
          cli: entry.cli,
          fixture: arm.fixture,
          script: arm.script,
          launch: arm.launch,
          ...(arm.runtime === undefined ? {} : { runtime: arm.runtime }),
          ...(arm.traceFiles === true ? { traceFiles: true } : {}),
          ...(entry.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs }),
        }),
      })),
    ),
  );
}

/**
 * The spawns shard `i` of `n` runs: every n-th of the run's order, starting at the i-th. An arm's
 * spawns are spread over the shards (its slow CLI does not land on one machine), and the split
 * depends only on the plan, so every machine computes the same one.
 */
export function shardSpawns(spawns: readonly PlannedSpawn[], shard: Shard): PlannedSpawn[] {
  return spawns.filter((_, k) => k % shard.count === shard.index - 1);
}

/** What identifies a run's plan: the same protocols, locks, versions, arms and spawn counts. */
export function planId(entries: readonly RunEntry[]): string {
  return canonicalHash(
    entries.map((e) => ({
      protocol: e.check.loaded.protocol.id,
      hash: e.check.loaded.canonicalHash,
      cli: e.cli,
      spawns: e.spawns,
      arms: e.arms.map((a) => a.id),
    })),
  );
}

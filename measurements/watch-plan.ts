// What `witness watch` would run: per CLI, the newest version with evidence (or `--since`), the
// releases npm published after it (one registry query per CLI), and the shipped protocols of that
// CLI to run on the newest of them; a protocol with a record there of its current lock is reused.
import { UsageError } from "../core/errors.js";
import { compareVersions, isRelease } from "../core/version-order.js";
import { isUsable, type LockCheck } from "../prereg/verify.js";
import type { CliRef, ProbeCliName } from "../probes/contracts/probe-spec.js";
import type { MeasurementRecord } from "./record.js";

/** A record on disk with its path. */
export interface RecordFile {
  file: string;
  record: MeasurementRecord;
}

/** One CLI's part of a watch, before anything runs. */
export interface WatchPlan {
  cli: ProbeCliName;
  /** The newest version with evidence under a current lock, or `--since`'s; null: none. */
  baseline: string | null;
  /** The published releases after the baseline, oldest first. */
  newer: string[];
  /** The version the protocols run on (the newest of `newer`); null: nothing new. */
  target: string | null;
  /** The locked protocols of this CLI. */
  protocols: LockCheck[];
  /** Those of them with a record at `target` under their current lock (not run again). */
  reused: Map<string, RecordFile>;
}

/** Whether `record` counts for the protocol `check` locks (its lock or a verified re-expression). */
export function countsFor(record: MeasurementRecord, check: LockCheck): boolean {
  return (
    record.protocol.id === check.loaded.protocol.id &&
    check.counting.includes(record.protocol.canonicalHash)
  );
}

/** The newest record (by finish time) of `check` on `version`, or undefined. */
export function recordAt(
  records: readonly RecordFile[],
  check: LockCheck,
  version: string,
): RecordFile | undefined {
  return records
    .filter((r) => r.record.cli.version === version && countsFor(r.record, check))
    .sort((a, b) => a.record.finishedAt.localeCompare(b.record.finishedAt))
    .at(-1);
}

/** The newest record of `check` on a version before `version`, or undefined. */
export function recordBefore(
  records: readonly RecordFile[],
  check: LockCheck,
  version: string,
): RecordFile | undefined {
  const earlier = records.filter(
    (r) =>
      countsFor(r.record, check) &&
      r.record.cli.name === check.loaded.protocol.cli.name &&
      compareVersions(r.record.cli.version, version) < 0,
  );
  const newest = earlier
    .map((r) => r.record.cli.version)
    .sort(compareVersions)
    .at(-1);
  return newest === undefined ? undefined : recordAt(earlier, check, newest);
}

/** Reads `--since name@version` entries into one baseline per CLI (a CLI named twice: exit 2). */
export function sinceByCli(since: readonly CliRef[]): Map<ProbeCliName, string> {
  const out = new Map<ProbeCliName, string>();
  for (const ref of since) {
    if (out.has(ref.name))
      throw new UsageError(`--since: expected one version per CLI; ${ref.name} is named twice`);
    out.set(ref.name, ref.version);
  }
  return out;
}

/** Plans one CLI's watch from its locked protocols, the records on disk and npm's version list. */
export function planWatch(
  cli: ProbeCliName,
  checks: readonly LockCheck[],
  records: readonly RecordFile[],
  published: readonly string[],
  options: { since?: string; fresh?: boolean } = {},
): WatchPlan {
  const protocols = checks.filter((c) => c.loaded.protocol.cli.name === cli && isUsable(c.state));
  const evidence = records
    .filter((r) => r.record.cli.name === cli && protocols.some((c) => countsFor(r.record, c)))
    .map((r) => r.record.cli.version);
  const baseline = options.since ?? evidence.sort(compareVersions).at(-1) ?? null;
  const newer = published
    .filter(isRelease)
    .filter((v) => baseline === null || compareVersions(v, baseline) > 0)
    .sort(compareVersions);
  // With no evidence at all there is nothing to compare with: the newest release is the start.
  const target = (baseline === null ? newer.slice(-1) : newer).at(-1) ?? null;
  const reused = new Map<string, RecordFile>();
  if (target !== null && options.fresh !== true)
    for (const check of protocols) {
      const found = recordAt(records, check, target);
      if (found !== undefined) reused.set(check.loaded.protocol.id, found);
    }
  return {
    cli,
    baseline,
    newer: baseline === null ? newer.slice(-1) : newer,
    target,
    protocols,
    reused,
  };
}

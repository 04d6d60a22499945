// Targeted runs: the arms `--arm` names, or the arms the newest record left inconclusive
// (`--rerun inconclusive`). Everything is decided before the first spawn.
import { basename } from "node:path";

import { UsageError } from "../core/errors.js";
import { readRecordFilesIn } from "./drift.js";
import type { MeasurementRecord, Verdict } from "./record.js";
import type { RunEntry } from "./spawn-plan.js";

/** What a run selects: arm ids (`--arm`, `0001/arm` for one protocol's), and verdicts to re-run. */
export interface ArmSelection {
  arms?: readonly string[];
  rerun?: readonly Verdict[];
  /** The records directory the newest records are read from (the run's `--out`). */
  recordsDir: string;
}

const matches = (entry: RunEntry, wanted: string, arm: string) =>
  wanted === arm || wanted === `${entry.check.loaded.protocol.id}/${arm}`;

/** Refuses (exit 2) an `--arm` that names no arm of any selected protocol, listing the arms. */
export function checkArmNames(entries: readonly RunEntry[], arms: readonly string[]): void {
  for (const wanted of arms) {
    if (entries.some((e) => e.arms.some((a) => matches(e, wanted, a.id)))) continue;
    const known = [
      ...new Set(
        entries.map((e) => `${e.check.loaded.protocol.id}: ${e.arms.map((a) => a.id).join(", ")}`),
      ),
    ];
    throw new UsageError(
      `--arm "${wanted}": no arm of the protocols run has that id (${known.join("; ")})`,
    );
  }
}

/** The newest record (by finish time) of the entry's protocol, lock and version in `records`. */
export function newestRecordOf(
  entry: RunEntry,
  records: readonly { file: string; record: MeasurementRecord }[],
): { file: string; record: MeasurementRecord } | null {
  const mine = records.filter(
    ({ record: r }) =>
      r.protocol.id === entry.check.loaded.protocol.id &&
      r.protocol.canonicalHash === entry.check.loaded.canonicalHash &&
      r.cli.name === entry.cli.name &&
      r.cli.version === entry.cli.version,
  );
  return mine.sort((a, b) => b.record.finishedAt.localeCompare(a.record.finishedAt))[0] ?? null;
}

/**
 * The entries with their arms narrowed as asked; an entry left with no arm is dropped with a
 * line saying why. A selection of every arm is a whole run (no `selection` on its record).
 */
export async function selectArms(
  entries: readonly RunEntry[],
  selection: ArmSelection,
): Promise<{ entries: RunEntry[]; skipped: string[] }> {
  const asked = selection.arms ?? [];
  if (asked.length > 0) checkArmNames(entries, asked);
  const rerun = selection.rerun ?? [];
  const records = rerun.length === 0 ? [] : await readRecordFilesIn(selection.recordsDir);
  const kept: RunEntry[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    const { id, slug } = entry.check.loaded.protocol;
    const on = `${entry.cli.name}@${entry.cli.version}`;
    let arms = entry.arms;
    const reasons: string[] = [];
    if (asked.length > 0) {
      arms = arms.filter((a) => asked.some((w) => matches(entry, w, a.id)));
      reasons.push(`--arm ${asked.join(", ")}`);
      if (arms.length === 0) {
        skipped.push(`skipped ${id} ${slug} on ${on}: --arm names none of its arms`);
        continue;
      }
    }
    if (rerun.length > 0) {
      const newest = newestRecordOf(entry, records);
      if (newest === null) {
        skipped.push(
          `skipped ${id} ${slug} on ${on}: no record of this lock in ${selection.recordsDir} to re-run from`,
        );
        continue;
      }
      const again = new Set(
        newest.record.arms.filter((a) => rerun.includes(a.verdict)).map((a) => a.id),
      );
      arms = arms.filter((a) => again.has(a.id));
      reasons.push(`--rerun ${rerun.join(", ")} of ${basename(newest.file)}`);
      if (arms.length === 0) {
        skipped.push(
          `skipped ${id} ${slug} on ${on}: no ${rerun.join(" or ")} arm in ${basename(newest.file)}`,
        );
        continue;
      }
    }
    const whole = arms.length === entry.check.loaded.protocol.arms.length;
    kept.push({
      ...entry,
      arms,
      selection: whole ? null : { arms: arms.map((a) => a.id), reason: reasons.join("; ") },
    });
  }
  return { entries: kept, skipped };
}

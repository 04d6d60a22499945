// The maintainer's table: protocol × arm × CLI version → verdict, from a run's records or from
// the records on disk (`witness drift`).
import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { compareVersions } from "../core/version-order.js";
import type { ArmRecord, MeasurementRecord } from "./record.js";
import { readRecord } from "./write-record.js";

/** One arm's verdict on each version it ran on (absent: not run there). */
export interface DriftRow {
  protocol: string;
  slug: string;
  arm: string;
  verdicts: Record<string, string>;
  /** True when the arm's verdicts differ between the versions it ran on. */
  changed: boolean;
}

/** One CLI's table: its versions in npm order, one row per protocol arm. */
export interface DriftTable {
  cli: string;
  versions: string[];
  rows: DriftRow[];
}

// An inconclusive arm whose version refused a flag says which one: that is not drift in behaviour.
function cell(arm: ArmRecord): string {
  const flags = new Set(arm.spawns.flatMap((s) => s.observation?.rejectedArgv?.flag ?? []));
  if (arm.verdict !== "inconclusive" || flags.size === 0) return arm.verdict;
  return `inconclusive (rejected ${[...flags].map((f) => `\`${f}\``).join(", ")})`;
}

/**
 * The records the drift table counts: of each protocol only the records of its latest lock, and
 * of several records of one version the one that finished last. `sameLock` maps a hash of an
 * earlier canonical form to the lock hash it stands for (a verified re-expression), so records
 * made before a re-expression stay in their lock's column.
 */
export function chosenRecords<R extends MeasurementRecord>(
  records: readonly R[],
  sameLock: ReadonlyMap<string, string> = new Map(),
): R[] {
  const lockOf = (r: MeasurementRecord) =>
    sameLock.get(r.protocol.canonicalHash) ?? r.protocol.canonicalHash;
  const latestLock = new Map<string, string>();
  const latestAt = new Map<string, string>();
  for (const r of records) {
    const seenAt = latestAt.get(r.protocol.id);
    if (seenAt === undefined || r.protocol.lockedAt > seenAt) {
      latestLock.set(r.protocol.id, lockOf(r));
      latestAt.set(r.protocol.id, r.protocol.lockedAt);
    }
  }
  const chosen = new Map<string, R>();
  for (const r of records) {
    if (latestLock.get(r.protocol.id) !== lockOf(r)) continue;
    const key = `${r.cli.name}\u0000${r.protocol.id}\u0000${r.cli.version}`;
    const had = chosen.get(key);
    if (had === undefined || r.finishedAt > had.finishedAt) chosen.set(key, r);
  }
  return [...chosen.values()];
}

/** The drift tables of `records`, one per CLI, over the records `chosenRecords` counts. */
export function driftTables(
  records: readonly MeasurementRecord[],
  sameLock: ReadonlyMap<string, string> = new Map(),
): DriftTable[] {
  const chosen = chosenRecords(records, sameLock);
  const clis = [...new Set(chosen.map((r) => r.cli.name))].sort();
  return clis.map((cli) => {
    const mine = chosen.filter((r) => r.cli.name === cli);
    const versions = [...new Set(mine.map((r) => r.cli.version))].sort(compareVersions);
    const protocols = [...new Set(mine.map((r) => r.protocol.id))].sort();
    const rows = protocols.flatMap((id) => {
      const ofProtocol = mine.filter((r) => r.protocol.id === id);
      const slug = ofProtocol[0]?.protocol.slug ?? "";
      const arms = [...new Set(ofProtocol.flatMap((r) => r.arms.map((a) => a.id)))];
      return arms.map((arm) => {
        const verdicts: Record<string, string> = {};
        for (const r of ofProtocol) {
          const found = r.arms.find((a) => a.id === arm);
          if (found !== undefined) verdicts[r.cli.version] = cell(found);
        }
        return {
          protocol: id,
          slug,
          arm,
          verdicts,
          changed: new Set(Object.values(verdicts)).size > 1,
        };
      });
    });
    return { cli, versions, rows };
  });
}

/** The tables as Markdown, one section per CLI; a changed row is marked with ≠. */
export function renderDriftMarkdown(tables: readonly DriftTable[]): string {
  if (tables.length === 0) return "No records.\n";
  return tables
    .map((t) => {
      const head = `| protocol | arm | ${t.versions.join(" | ")} | |`;
      const rule = `|---|---|${t.versions.map(() => "---|").join("")}---|`;
      const lines = t.rows.map(
        (r) =>
          `| ${r.protocol} ${r.slug} | ${r.arm} | ${t.versions.map((v) => r.verdicts[v] ?? "–").join(" | ")} | ${r.changed ? "≠" : ""} |`,
      );
      return [`### ${t.cli}`, "", head, rule, ...lines, ""].join("\n");
    })
    .join("\n");
}

/** Every record JSON in `dir` with its path (files that are not records are left out, as the gate does). */
export async function readRecordFilesIn(
  dir: string,
): Promise<{ file: string; record: MeasurementRecord }[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return [];
  }
  const out: { file: string; record: MeasurementRecord }[] = [];
  for (const name of names) {
    try {
      // A symlink would bring in a file from outside the directory as one of its records.
      const record = await readRecord(join(dir, name), { noSymlink: true });
      out.push({ file: join(dir, name), record });
    } catch {
      // Not a record: the drift table is about records only.
    }
  }
  return out;
}

/** Every record JSON in `dir` (files that are not records are left out, as the gate does). */
export async function readRecordsIn(dir: string): Promise<MeasurementRecord[]> {
  return (await readRecordFilesIn(dir)).map((r) => r.record);
}

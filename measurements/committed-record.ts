// What a run is compared with: the committed record of the same protocol, lock and CLI version,
// read from git (HEAD), not whatever file happens to lie on disk.
import { DOCS } from "../core/doc-paths.js";
import { committedFiles, repoRoot, showAt } from "../core/git.js";
import { sameArmVerdicts, sameVerdicts } from "./diff.js";
import { type MeasurementRecord, recordSchema } from "./record.js";

/** How a run compares with the committed record it repeats. */
export type Reproduction =
  | { kind: "none"; why: string }
  | {
      kind: "compared";
      /** The committed record, repository-relative. */
      committed: string;
      reproduces: boolean;
      /** Set when the two records ran different numbers of spawns (per arm). */
      spawns: { committed: number; now: number } | null;
    };

/**
 * The committed records (HEAD) of one protocol, lock and CLI version, oldest name first. `counting`
 * lists the hashes that stand for the record's lock (its own, and earlier canonical forms of the
 * same content: `LockCheck.counting`); by default only its own.
 */
export async function committedRecordsOf(
  record: MeasurementRecord,
  cwd: string,
  counting: readonly string[] = [record.protocol.canonicalHash],
): Promise<{ path: string; record: MeasurementRecord }[]> {
  const root = await repoRoot(cwd);
  const prefix = `${DOCS.measurements}/${record.protocol.id}-`;
  const out: { path: string; record: MeasurementRecord }[] = [];
  for (const path of await committedFiles(DOCS.measurements, root)) {
    if (!path.startsWith(prefix) || !path.endsWith(".json")) continue;
    const text = await showAt("HEAD", path, root);
    let parsed;
    try {
      parsed = recordSchema.safeParse(JSON.parse(text ?? ""));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const r = parsed.data;
    if (
      r.selection === undefined &&
      counting.includes(r.protocol.canonicalHash) &&
      r.cli.name === record.cli.name &&
      r.cli.version === record.cli.version
    )
      out.push({ path, record: r });
  }
  // `0001-…-2.1.332.json` before `0001-…-2.1.332-2.json`: written (and committed) in that order.
  return out.sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
}

/** Compares `record` with the committed record of its protocol, lock and version, if any. */
export async function compareWithCommitted(
  record: MeasurementRecord,
  cwd: string,
  counting?: readonly string[],
): Promise<Reproduction> {
  // The newest committed record of the lock is the reference: a later one is what the project
  // stands behind now (e.g. record 0031-2, made after the orchestrator's rendering was fixed).
  const first = (await committedRecordsOf(record, cwd, counting)).at(-1);
  if (first === undefined) {
    return {
      kind: "none",
      why: `nothing committed to compare with: no record of protocol ${record.protocol.id} for this lock on ${record.cli.name}@${record.cli.version}`,
    };
  }
  const now = record.spawnsPerArm;
  const committed = first.record.spawnsPerArm;
  return {
    kind: "compared",
    committed: first.path,
    // A run of some arms is compared on those arms only.
    reproduces:
      record.selection === undefined
        ? sameVerdicts(first.record, record)
        : sameArmVerdicts(first.record, record, record.selection.arms),
    spawns: now === committed ? null : { committed, now },
  };
}

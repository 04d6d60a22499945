// The records the gate reads: as committed at HEAD, from git's objects, never through the
// working tree (where a symlink or an uncommitted edit would be read as evidence).
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { errorMessage } from "../core/error-text.js";
import { InputError } from "../core/errors.js";
import { type Addition, readBlobs, treeEntries, type TreeEntry } from "../core/git.js";
import { zodIssues } from "../core/read-input.js";
import { type MeasurementRecord, recordSchema } from "../measurements/record.js";
import { MAX_RECORD_BYTES } from "../measurements/record.js";

/** A committed record that parsed as `witness.record/1`. */
export interface CommittedRecord {
  /** Repository-relative path. */
  path: string;
  /** The committed blob's object id. */
  blob: string;
  record: MeasurementRecord;
}

/** A `.json` file in the records directory that is not evidence, and why. */
export interface RejectedRecord {
  path: string;
  problem: string;
}

/** What the records directory holds, as the gate reads it. */
export interface RecordsAtHead {
  records: CommittedRecord[];
  rejected: RejectedRecord[];
  /** Record files in the working tree that HEAD does not hold. */
  uncommitted: string[];
}

/** Parses a record's committed text; a problem sentence when it is not a record. */
export function parseRecordText(text: string): MeasurementRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return `not JSON (${errorMessage(error)})`;
  }
  const parsed = recordSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error).slice(0, 3);
  return `not a witness.record/1: ${issues.map((i) => `${i.path === "" ? "(top)" : i.path}: ${i.message}`).join("; ")}`;
}

async function workingTreeJson(root: string): Promise<string[]> {
  try {
    return (await readdir(join(root, DOCS.measurements))).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
}

/** What one gate run reads of docs/measurements at most, checked on git's sizes before reading. */
export interface RecordLimits {
  /** The largest record read (default: as `witness run` writes them, 128 MiB). */
  recordBytes: number;
  /** The most `.json` files (default 20 000). */
  records: number;
  /** The most bytes of all records together (default 2 GiB). */
  totalBytes: number;
}

/** The default bounds. */
export const RECORD_LIMITS: RecordLimits = {
  recordBytes: MAX_RECORD_BYTES,
  records: 20_000,
  totalBytes: 2 * 1024 * 1024 * 1024,
};

/**
 * Every `.json` under docs/measurements at HEAD: the records, and the files that are not. A record
 * is read as git added it (`additions`): a path whose blob at HEAD is not the one its oldest
 * addition wrote was edited after it was committed, and is refused.
 */
export async function recordsAtHead(
  root: string,
  additions: ReadonlyMap<string, Addition>,
  limits: RecordLimits = RECORD_LIMITS,
): Promise<RecordsAtHead> {
  const entries = (await treeEntries("HEAD", DOCS.measurements, root))
    .filter((e) => e.path.endsWith(".json"))
    .sort((a, b) => a.path.localeCompare(b.path));
  const records: CommittedRecord[] = [];
  const rejected: RejectedRecord[] = [];
  const oversized = (e: TreeEntry) => (e.size ?? 0) > limits.recordBytes;
  const readable = entries.filter((e) => e.type === "blob" && e.mode !== "120000" && !oversized(e));
  const total = readable.reduce((sum, e) => sum + (e.size ?? 0), 0);
  // Bounds checked on git's sizes before any blob is read.
  if (entries.length > limits.records || total > limits.totalBytes)
    throw new InputError(DOCS.measurements, [
      {
        path: "",
        message: `expected at most ${limits.records} record files of ${limits.totalBytes} bytes in all; got ${entries.length} of ${total}`,
      },
    ]);
  // Every blob in one git call: the gate's cost must not grow by a process per record.
  const texts = await readBlobs(
    readable.map((e) => e.object),
    root,
  );
  for (const entry of entries) {
    if (entry.mode === "120000") {
      rejected.push({ path: entry.path, problem: "a symlink; a record must be a committed file" });
      continue;
    }
    if (entry.type !== "blob") {
      rejected.push({ path: entry.path, problem: `a ${entry.type}, not a file` });
      continue;
    }
    if (oversized(entry)) {
      rejected.push({
        path: entry.path,
        problem: `${entry.size ?? 0} bytes, over the ${limits.recordBytes} a record may have (not read)`,
      });
      continue;
    }
    const added = additions.get(entry.path);
    if (added !== undefined && added.blob !== entry.object) {
      rejected.push({
        path: entry.path,
        problem: `modified after it was added in ${added.commit.slice(0, 12)}; a record is judged as git added it and never edited (write a new record)`,
      });
      continue;
    }
    const parsed = parseRecordText(texts.get(entry.object) ?? "");
    if (typeof parsed === "string") rejected.push({ path: entry.path, problem: parsed });
    else records.push({ path: entry.path, blob: entry.object, record: parsed });
  }
  const committed = new Set(entries.map((e) => e.path));
  const uncommitted: string[] = [];
  for (const name of await workingTreeJson(root)) {
    const path = join(DOCS.measurements, name);
    if (committed.has(path)) continue;
    // A symlink in the working tree is not even a candidate.
    if ((await lstat(join(root, path))).isSymbolicLink()) {
      rejected.push({ path, problem: "a symlink; a record must be a committed file" });
    } else uncommitted.push(path);
  }
  return { records, rejected, uncommitted: uncommitted.sort() };
}

// A local ledger of every record witness wrote, wherever it went (`--out`, a merge, another
// clone): the amendment log's "records existed" must not depend on where a record was written.
import { appendFile, lstat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { defaultCacheDir } from "../core/cache-dir.js";
import { hasErrno } from "../core/fs-errors.js";
import { makeDirs } from "../core/make-dirs.js";
import { readUserFile } from "../core/read-input.js";
import type { MeasurementRecord } from "./record.js";

/** One line of the ledger: a record written, of which protocol and lock. */
export const ledgerEntrySchema = z.object({
  v: z.literal(1),
  at: z.string(),
  /** The record's JSON file, absolute. */
  record: z.string(),
  protocol: z.object({ id: z.string(), slug: z.string(), canonicalHash: z.string() }),
  cli: z.object({ name: z.string(), version: z.string() }),
  verdict: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** The ledger file: `runs.jsonl` in the vendor cache directory (`--cache`, else the default). */
export function runLedgerPath(cacheDir?: string): string {
  return join(cacheDir ?? defaultCacheDir(), "runs.jsonl");
}

/** Appends one entry per record (a line under 4 KiB is one atomic append). */
export async function recordInLedger(
  ledger: string,
  record: MeasurementRecord,
  json: string,
  now: () => Date = () => new Date(),
): Promise<void> {
  const entry: LedgerEntry = {
    v: 1,
    at: now().toISOString(),
    record: json,
    protocol: {
      id: record.protocol.id,
      slug: record.protocol.slug,
      canonicalHash: record.protocol.canonicalHash,
    },
    cli: { name: record.cli.name, version: record.cli.version },
    verdict: record.verdict,
  };
  await makeDirs(join(ledger, ".."));
  await appendFile(ledger, `${JSON.stringify(entry)}\n`);
}

/** The largest ledger read back (a line is some 400 bytes: over 150 000 records). */
const MAX_LEDGER_BYTES = 64 * 1024 * 1024;

/**
 * Every ledger entry; a missing ledger is empty and a damaged line is skipped. The ledger must be
 * a regular file within its bound (a symlink or a FIFO in its place is refused, naming it).
 */
export async function readLedger(ledger: string): Promise<LedgerEntry[]> {
  const missing = await lstat(ledger).then(
    () => false,
    (error: unknown) => hasErrno(error, "ENOENT"),
  );
  if (missing) return [];
  const limits = { maxBytes: MAX_LEDGER_BYTES, noSymlink: true };
  const text = (await readUserFile(ledger, "the run ledger", undefined, limits)).toString("utf8");
  return text.split("\n").flatMap((line) => {
    if (line.trim() === "") return [];
    try {
      const parsed = ledgerEntrySchema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}

/** The records the ledger knows of protocol `id` at any of `hashes` (its lock history). */
export async function ledgerRecordsOf(
  ledger: string,
  id: string,
  hashes: readonly string[],
): Promise<string[]> {
  const entries = await readLedger(ledger);
  return [
    ...new Set(
      entries
        .filter((e) => e.protocol.id === id && hashes.includes(e.protocol.canonicalHash))
        .map((e) => e.record),
    ),
  ].sort();
}

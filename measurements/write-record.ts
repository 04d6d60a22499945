import { access, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { UsageError } from "../core/errors.js";
import { errnoCode } from "../core/fs-errors.js";
import { makeDirs } from "../core/make-dirs.js";
import { readInput } from "../core/read-input.js";
import { recoverFileSets } from "../core/set-recovery.js";
import { type SetWriteIo, writeFilesTogether } from "../core/write-set.js";
import { type MeasurementRecord, recordSchema } from "./record.js";
import { MAX_RECORD_BYTES } from "./record.js";
import { renderCsv } from "./render-csv.js";
import { renderMarkdown } from "./render-md.js";

/** `NNNN-slug-cli-version`, the name every file of a record starts with. */
export function recordBaseName(record: MeasurementRecord): string {
  return `${record.protocol.id}-${record.protocol.slug}-${record.cli.name}-${record.cli.version}`;
}

/** Fails (exit 2) unless records can be written in `dir`; run before any spawn. */
export async function ensureWritableDir(dir: string): Promise<void> {
  const probe = join(dir, `.witness-write-check-${process.pid}`);
  try {
    await makeDirs(dir);
    await writeFile(probe, "", { flag: "wx" });
    await rm(probe, { force: true });
  } catch (error) {
    throw new UsageError(`${dir}: cannot write records there (${errnoCode(error, String(error))})`);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Reads and validates a record JSON file (`noSymlink`: one found in a directory must be the file itself). */
export async function readRecord(
  file: string,
  options: { noSymlink?: boolean } = {},
): Promise<MeasurementRecord> {
  return readInput(recordSchema, file, "the record", { maxBytes: MAX_RECORD_BYTES, ...options });
}

/** Where a record went, and the latest earlier record of the same protocol, CLI and version. */
export { MAX_RECORD_BYTES };

export interface WrittenRecord {
  json: string;
  md: string;
  csv: string;
  previous: string | null;
}

/**
 * Writes the record's three files under the first free name, together or not at all (a crash
 * midway is finished by the next write in `dir` or by `witness clean`); never overwrites.
 */
export async function writeRecord(
  record: MeasurementRecord,
  dir: string,
  io?: SetWriteIo,
): Promise<WrittenRecord> {
  await recoverFileSets(dir);
  const base = recordBaseName(record);
  const files = {
    md: renderMarkdown(record),
    csv: renderCsv(record),
    // JSON last: it is what the gate reads, so it appears only once the others exist.
    json: `${JSON.stringify(record, null, 2)}\n`,
  };
  let previous: string | null = null;
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    const paths = {
      md: join(dir, `${name}.md`),
      csv: join(dir, `${name}.csv`),
      json: join(dir, `${name}.json`),
    };
    if (await exists(paths.json)) previous = paths.json;
    if ((await exists(paths.json)) || (await exists(paths.md)) || (await exists(paths.csv)))
      continue;
    const order = ["md", "csv", "json"] as const;
    const set = order.map((ext) => ({ path: paths[ext], data: files[ext] }));
    // false: another writer took this name between the check and the write; try the next.
    if (await writeFilesTogether(set, io)) return { ...paths, previous };
  }
}

// The run journal: each spawn appended as it completes, and each record as it is written, so a run
// whose record cannot be written (a full disk, a directory gone read-only) or that was interrupted
// can be finished later (`witness run --resume <journal>`) without spawning again what already ran.
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { appendLine } from "../core/append.js";
import { InputError, UsageError } from "../core/errors.js";
import { errnoCode } from "../core/fs-errors.js";
import { makeDirs } from "../core/make-dirs.js";
import { readUserFile } from "../core/read-input.js";
import { defaultCacheDir } from "../probes/vendor-cache.js";
import {
  createSeal,
  type JournalSeal,
  keyFileOf,
  openLine,
  readSeal,
  sealLine,
} from "./journal-mac.js";
import { spawnRecordSchema } from "./record.js";
import { MAX_RECORD_BYTES } from "./write-record.js";

/** The first line: the run's options, enough to plan it again, and the plan it had. */
export const journalHeaderSchema = z.object({
  type: z.literal("run"),
  schema: z.literal("witness.journal/1"),
  /** The plan's id: a resume refuses a plan that changed (a protocol edited, other arms). */
  plan: z.string(),
  cwd: z.string(),
  /** The records directory, absolute. */
  out: z.string(),
  /** Protocol files, absolute (the run's `--all` already expanded). */
  files: z.array(z.string()),
  spawns: z.number().int().positive().optional(),
  /** `--timeout`, in ms: every spawn of the run, resumed ones too, gets the same limit. */
  timeoutMs: z.number().int().positive().optional(),
  clis: z.array(z.object({ name: z.string(), version: z.string() })).optional(),
  arms: z.array(z.string()).optional(),
  startedAt: z.string(),
});
export type JournalHeader = z.infer<typeof journalHeaderSchema>;

const spawnLineSchema = z.object({
  type: z.literal("spawn"),
  key: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  spawn: spawnRecordSchema,
});
const writtenLineSchema = z.object({
  type: z.literal("written"),
  entry: z.string(),
  json: z.string(),
});
const lineSchema = z.discriminatedUnion("type", [spawnLineSchema, writtenLineSchema]);

/** A journaled spawn, by its plan key. */
export type JournaledSpawn = Omit<z.infer<typeof spawnLineSchema>, "type">;

/** Where journals go: $WITNESS_STATE_DIR, else `.journals` in the vendor cache (see the README on HOME). */
export function journalDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  cacheDir?: string,
): string {
  if (env.WITNESS_STATE_DIR) return join(env.WITNESS_STATE_DIR, "journals");
  return join(cacheDir ?? defaultCacheDir(env), ".journals");
}

/** An open journal: appends are serialized, one whole line each. */
export interface Journal {
  file: string;
  /** Spawns held so far (with those read back on a resume). */
  count(): number;
  spawn(entry: JournaledSpawn): Promise<void>;
  written(entry: string, json: string): Promise<void>;
  /** Deletes the journal once every record is written. */
  remove(): Promise<void>;
}

function openJournal(file: string, count: number, seal: JournalSeal, dir: string): Journal {
  let chain: Promise<void> = Promise.resolve();
  let spawns = count;
  const append = (line: object, counts: boolean) => {
    const next = chain.then(async () => {
      const before = seal.last;
      try {
        await appendLine(file, sealLine(seal, line));
      } catch (error) {
        // The line is not in the file: the next one chains to the line before it.
        seal.last = before;
        throw new UsageError(
          `${file}: cannot journal the run (${errnoCode(error, String(error))}); it holds the ${spawns} spawns before: free the space, then \`witness run --resume ${file}\``,
        );
      }
      if (counts) spawns++;
    });
    chain = next.catch(() => undefined);
    return next;
  };
  return {
    file,
    count: () => spawns,
    spawn: (entry) => append({ type: "spawn", ...entry }, true),
    written: (entry, json) => append({ type: "written", entry, json }, false),
    remove: async () => {
      await rm(file, { force: true });
      await rm(keyFileOf(dir, file), { force: true });
    },
  };
}

/** Starts a journal in `dir`; fails (exit 2) before any spawn if it cannot. */
export async function createJournal(header: JournalHeader, dir: string): Promise<Journal> {
  const stamp = header.startedAt.replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const file = join(dir, `run-${stamp}-${process.pid}-${randomBytes(3).toString("hex")}.jsonl`);
  let seal: JournalSeal;
  try {
    await makeDirs(dir);
    seal = await createSeal(dir, file);
    await appendLine(file, sealLine(seal, header));
  } catch (error) {
    throw new UsageError(
      `${dir}: cannot create the run journal there (${errnoCode(error, String(error))}); set WITNESS_STATE_DIR to a writable directory`,
    );
  }
  return openJournal(file, 0, seal, dir);
}

/** A journal read back: the run, its spawns by key, the entries whose record was written. */
export interface ReadJournal {
  header: JournalHeader;
  spawns: Map<string, JournaledSpawn>;
  written: Map<string, string>;
  journal: Journal;
}

/**
 * Reads a journal for `--resume` with the key its run kept in the state directory `dir`; a
 * malformed line, or one whose MAC does not hold (edited, reordered, not this run's), is an
 * InputError naming its number.
 */
export async function readJournal(file: string, dir: string): Promise<ReadJournal> {
  const bytes = await readUserFile(file, "the run journal", undefined, {
    maxBytes: MAX_RECORD_BYTES,
    noSymlink: true,
  });
  const seal = await readSeal(dir, file);
  const lines = bytes.toString("utf8").split("\n");
  // The empty string after the last newline (appends are whole lines).
  lines.pop();
  const issue = (line: number, message: string) =>
    new InputError(file, [{ path: `line ${line}`, message }]);
  const parse = (line: number): unknown => {
    let value: unknown;
    try {
      value = JSON.parse(lines[line - 1] ?? "");
    } catch {
      throw issue(line, "expected one JSON object per line");
    }
    if (!openLine(seal, value))
      throw issue(
        line,
        "mac: expected the MAC this run's key gives the line; the journal was edited or is not this run's",
      );
    return value;
  };
  const head = journalHeaderSchema.safeParse(parse(1));
  if (!head.success) throw issue(1, "expected the run header of a witness journal");
  const spawns = new Map<string, JournaledSpawn>();
  const written = new Map<string, string>();
  for (let line = 2; line <= lines.length; line++) {
    const entry = lineSchema.safeParse(parse(line));
    if (!entry.success) throw issue(line, "expected a journaled spawn or written record");
    if (entry.data.type === "written") written.set(entry.data.entry, entry.data.json);
    else spawns.set(entry.data.key, entry.data);
  }
  return { header: head.data, spawns, written, journal: openJournal(file, spawns.size, seal, dir) };
}

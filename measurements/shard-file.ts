// A shard's partial result (`witness run --shard i/n`): the plan it belongs to, each record's frame,
// and the spawns this machine ran. `witness merge` turns the n parts into the records.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { writeFileExclusive } from "../core/atomic.js";
import { errorMessage } from "../core/error-text.js";
import { InputError, UsageError } from "../core/errors.js";
import { parseWith, readUserFile } from "../core/read-input.js";
import { agreesWithSchema } from "../prereg/agreement.js";
import { recordSchema, spawnRecordSchema } from "./record.js";

const machineSchema = recordSchema.shape.machine;

/** One record's frame as a shard carries it (see runner.ts `RecordFrame`). */
export const shardEntrySchema = z.object({
  key: z.string(),
  header: recordSchema.pick({
    schema: true,
    protocol: true,
    cli: true,
    witness: true,
    machine: true,
    spawnsPerArm: true,
    spawnTimeoutMs: true,
    verdictRule: true,
  }),
  arms: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      labels: z.array(z.string()),
      workspaceTrusted: z.boolean().optional(),
      agreements: z
        .array(z.object({ index: z.number().int(), predicate: agreesWithSchema }))
        .optional(),
    }),
  ),
  selection: z.object({ arms: z.array(z.string()), reason: z.string() }).nullable(),
  /** The lock hashes whose committed records count for this one (re-expressed locks: both). */
  counting: z.array(z.string()).optional(),
});
export type ShardEntry = z.infer<typeof shardEntrySchema>;

/** The partial result of one shard. */
export const shardFileSchema = z.object({
  schema: z.literal("witness.shard/1"),
  /** The plan's hash: the same protocols, locks, versions, arms and spawn counts. */
  plan: z.string(),
  /** `--run-id`: tells two runs of one plan apart (null when not given). */
  runId: z.string().nullable(),
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }),
  /** Spawns in the whole plan, over all shards. */
  total: z.number().int(),
  machine: machineSchema,
  startedAt: z.string(),
  finishedAt: z.string(),
  entries: z.array(shardEntrySchema),
  spawns: z.array(
    z.object({
      key: z.string(),
      entry: z.number().int(),
      arm: z.string(),
      index: z.number().int(),
      startedAt: z.string(),
      finishedAt: z.string(),
      record: spawnRecordSchema,
    }),
  ),
});
export type ShardFile = z.infer<typeof shardFileSchema>;

/** `witness-shard-2-of-3.json`. */
export function shardFileName(index: number, count: number): string {
  return `witness-shard-${index}-of-${count}.json`;
}

/** Refuses (exit 2, before any spawn) a records directory that already holds this shard. */
export async function refuseExistingShard(
  dir: string,
  index: number,
  count: number,
): Promise<void> {
  const file = join(dir, shardFileName(index, count));
  if ((await stat(file).catch(() => null)) !== null)
    throw new UsageError(`${file} already exists: give this shard a fresh --out directory`);
}

/** Writes the shard's file; never over an existing one. */
export async function writeShardFile(dir: string, shard: ShardFile): Promise<string> {
  const file = join(dir, shardFileName(shard.shard.index, shard.shard.count));
  if (!(await writeFileExclusive(file, `${JSON.stringify(shard)}\n`)))
    throw new UsageError(`${file} already exists: give this shard a fresh --out directory`);
  return file;
}

/** The largest shard file read back (the same bound as a record). */
const MAX_SHARD_BYTES = 256 * 1024 * 1024;

/** The shard files named: a file, or every `witness-shard-*.json` in a directory. */
export async function findShardFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const found = await stat(path).catch(() => null);
    if (found === null) throw new UsageError(`${path}: no such file or directory`);
    if (!found.isDirectory()) {
      out.push(path);
      continue;
    }
    const names = (await readdir(path)).filter((n) => /^witness-shard-\d+-of-\d+\.json$/.test(n));
    if (names.length === 0)
      throw new UsageError(`${path}: holds no witness-shard-<i>-of-<n>.json (a shard's --out)`);
    out.push(...names.sort().map((n) => join(path, n)));
  }
  return out;
}

/** Reads and validates one shard file (JSON only: a shard is written by witness, never by hand). */
export async function readShardFile(file: string): Promise<ShardFile> {
  const text = (
    await readUserFile(file, "the shard file", undefined, {
      maxBytes: MAX_SHARD_BYTES,
      // A shard is a file a shard run wrote; a symlink could name anything on the host.
      noSymlink: true,
    })
  ).toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(file, [
      { path: "", message: `not JSON (${errorMessage(error)}); expected a witness-shard file` },
    ]);
  }
  return parseWith(shardFileSchema, value, file);
}

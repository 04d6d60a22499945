// The spawn cache: each judged spawn of the real probe cell, filed under the hash of everything
// that could change it (spawn-key.ts), so a later run with the same inputs takes it instead of
// spawning again. One JSON file per spawn in `<cache>/spawns/<2 hex>/<hash>.json`, written
// atomically; a file that does not parse, or names another key, is no entry.
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { writeFileAtomic } from "../core/atomic.js";
import { defaultCacheDir } from "../core/cache-dir.js";
import {
  type SpawnOrigin,
  spawnOriginSchema,
  type SpawnRecord,
  spawnRecordSchema,
} from "./record.js";

/** The folder of the cache directory the spawn cache lives in. */
export const SPAWN_CACHE_FOLDER = "spawns";

/** Where the spawn cache is: `<cacheDir>/spawns`. */
export function spawnCacheDir(cacheDir?: string): string {
  return join(cacheDir ?? defaultCacheDir(), SPAWN_CACHE_FOLDER);
}

const entrySchema = z.object({
  schema: z.literal("witness.spawn/1"),
  origin: spawnOriginSchema,
  /** The inputs themselves, so an entry can be read and checked by hand. */
  inputs: z.unknown(),
  spawn: spawnRecordSchema,
});
/** One file of the spawn cache. */
export type CachedSpawn = z.infer<typeof entrySchema>;

const HASH = /^sha256:([0-9a-f]{64})$/;

function fileOf(dir: string, hash: string): string {
  const hex = HASH.exec(hash)?.[1];
  // The hash is witness's own; anything else would name a file outside the cache.
  if (hex === undefined) throw new Error(`spawn cache: not a sha256 hash: ${hash}`);
  return join(dir, hex.slice(0, 2), `${hex}.json`);
}

/** The entry filed under `hash`, or null (none, unreadable, or another key's). */
export async function readCachedSpawn(dir: string, hash: string): Promise<CachedSpawn | null> {
  let text: string;
  try {
    text = await readFile(fileOf(dir, hash), "utf8");
  } catch {
    return null;
  }
  try {
    const entry = entrySchema.parse(JSON.parse(text));
    return entry.origin.inputs === hash ? entry : null;
  } catch {
    return null;
  }
}

/** Files `spawn` under its origin's hash (a later write of the same key replaces it whole). */
export async function writeCachedSpawn(
  dir: string,
  entry: { origin: SpawnOrigin; inputs: unknown; spawn: SpawnRecord },
): Promise<void> {
  const file = fileOf(dir, entry.origin.inputs);
  await mkdir(join(file, ".."), { recursive: true });
  // Filed as it ran here: a reused spawn is never filed again (worthFiling).
  const body: CachedSpawn = { schema: "witness.spawn/1", ...entry };
  await writeFileAtomic(file, `${JSON.stringify(body)}\n`);
}

// Faults that say the machine or witness failed the spawn, not what the CLI does with its inputs:
// a spawn with one is run again next time. A CLI's refusal of a flag or its stop before any model
// request follows from the inputs, and is filed like any other outcome.
const TRANSIENT = [
  "timeout",
  "killed",
  "probe failed",
  "cli-missing",
  "cli-not-started",
  "containment-not-held",
  "fake-server-error",
  "file trace unavailable",
  "orchestrator-not-started",
  "spawn-unfinished",
];

/** Whether a spawn may be filed: one with an observation and no transient fault, run here. */
export function worthFiling(spawn: SpawnRecord): boolean {
  return (
    spawn.reused === undefined &&
    spawn.observation !== null &&
    !spawn.faults.some((f) => TRANSIENT.some((t) => f.startsWith(t)))
  );
}

// What a crashed run can leave under the temp directory (cells, namespace directories, throwaway
// HOMEs) and in the vendor cache (an install's staging directory), and `witness clean`, which
// removes them. Each is made with an owner file naming the witness process that made it, so a
// live run's directories are never touched.
import { readdirSync, readlinkSync, rmSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { currentOwner, type Owner, ownerAlive, ownerSchema } from "../core/owner.js";

/** The temp directories witness makes, by name prefix. */
export const LEFTOVER_PREFIXES = [
  "witness-cell-",
  "witness-netns-",
  "witness-version-",
  "witness-view-",
] as const;

/** The prefix of an install's staging directory in the vendor cache. */
export const STAGING_PREFIX = ".staging-";

/** The file inside each such directory that names its maker. */
export const OWNER_FILE = "witness-owner.json";

/** Makes a temp directory `<tmp>/<prefix>XXXXXX` owned by this process. */
export function makeOwnedTempDir(
  prefix: (typeof LEFTOVER_PREFIXES)[number],
  base = tmpdir(),
): Promise<string> {
  return makeOwnedDir(base, prefix);
}

/** Makes `<base>/<prefix>XXXXXX` owned by this process (a staging directory: `.staging-<name>@<version>-`). */
export async function makeOwnedDir(base: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(base, prefix));
  await writeFile(join(dir, OWNER_FILE), `${JSON.stringify(currentOwner())}\n`);
  return dir;
}

async function ownerOf(dir: string): Promise<Owner | null> {
  try {
    const parsed = ownerSchema.safeParse(JSON.parse(await readFile(join(dir, OWNER_FILE), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Processes whose working directory is inside `dir` (Linux; none found elsewhere). */
export function processesInside(dir: string, procDir = "/proc"): number[] {
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cwd = readlinkSync(join(procDir, entry, "cwd"));
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** One directory `witness clean` looked at. */
export interface Leftover {
  path: string;
  /** Why it was removed or kept, in a few words. */
  why: string;
  /** Processes still running inside it that were killed first. */
  killed: number[];
}

/** Options of `cleanLeftovers`. */
export interface CleanOptions {
  /** Where to look (default os.tmpdir()). */
  tmpDir?: string;
  /** The vendor cache, whose install staging directories and `cells/` are looked at too (none when absent). */
  cacheDir?: string;
  /** Only report; remove and kill nothing. */
  dryRun?: boolean;
}

/**
 * Removes what crashed witness runs left in the temp directory (and, given the vendor cache, the
 * staging directories of installs cut off there), killing any process still
 * running inside first. A live run's directories are kept, and so is one without an owner file:
 * a cell kept on purpose (`--keep`) or one an older witness made, which only a person can judge.
 */
export async function cleanLeftovers(
  options: CleanOptions = {},
): Promise<{ removed: Leftover[]; kept: Leftover[] }> {
  const removed: Leftover[] = [];
  const kept: Leftover[] = [];
  const places: [string, readonly string[]][] = [[options.tmpDir ?? tmpdir(), LEFTOVER_PREFIXES]];
  if (options.cacheDir !== undefined) {
    places.push([options.cacheDir, [STAGING_PREFIX]]);
    // Cells of a fixture's `cell: {root: home}` (probes/cell/cell-root.ts).
    places.push([join(options.cacheDir, "cells"), LEFTOVER_PREFIXES]);
  }
  for (const [base, prefixes] of places) {
    let names: string[];
    try {
      names = await readdir(base);
    } catch {
      continue;
    }
    const mine = names.filter((n) => prefixes.some((prefix) => n.startsWith(prefix)));
    for (const name of mine.sort()) {
      const outcome = await cleanOne(join(base, name), options.dryRun === true);
      if (outcome !== null) (outcome.removed ? removed : kept).push(outcome.leftover);
    }
  }
  return { removed, kept };
}

/** Removes one leftover directory whose owner is gone (null: not a directory). */
async function cleanOne(
  path: string,
  dryRun: boolean,
): Promise<{ removed: boolean; leftover: Leftover } | null> {
  const info = await stat(path).catch(() => null);
  if (info?.isDirectory() !== true) return null;
  const owner = await ownerOf(path);
  if (owner === null) {
    const why = "no owner file: kept with --keep, or made by an older witness";
    return { removed: false, leftover: { path, why, killed: [] } };
  }
  if (ownerAlive(owner)) {
    const why = `in use by witness pid ${owner.pid}`;
    return { removed: false, leftover: { path, why, killed: [] } };
  }
  const inside = processesInside(path);
  if (!dryRun) {
    for (const pid of inside) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await rm(path, { recursive: true, force: true });
  }
  return {
    removed: true,
    leftover: { path, why: `witness pid ${owner.pid} is gone`, killed: inside },
  };
}

/** Marks a directory as kept on purpose (`--keep`): `witness clean` leaves it alone from now on. */
export function disownTempDir(dir: string): void {
  rmSync(join(dir, OWNER_FILE), { force: true });
}

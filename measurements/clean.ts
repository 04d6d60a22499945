// `witness clean`: what a crashed run left behind. Cells, namespace directories and throwaway
// HOMEs in the temp directory, install staging directories in the vendor cache (their processes
// killed first), and record files a crash cut off midway, which are completed from the parts the
// writer had finished (never left half there).
import { join, resolve } from "node:path";

import { defaultCacheDir } from "../core/cache-dir.js";
import { DOCS } from "../core/doc-paths.js";
import { repoRoot } from "../core/git.js";
import { recoverFileSets, type SetRecovery } from "../core/set-recovery.js";
import { cleanLeftovers, type Leftover } from "../probes/leftovers.js";

/** Options of `cleanAfterCrash`. */
export interface CleanAfterCrashOptions {
  cwd?: string;
  /** The records directory to finish (default docs/measurements when `cwd` is in a repository). */
  out?: string;
  /** The temp directory to look in (default os.tmpdir()). */
  tmpDir?: string;
  /** The vendor cache, whose cut-off install staging directories go too (default the usual one). */
  cacheDir?: string;
  dryRun?: boolean;
}

/** What `witness clean` did. */
export interface CleanReport {
  removed: Leftover[];
  kept: Leftover[];
  /** The records directory looked at (null outside a repository without `out`), and what was finished. */
  records: { dir: string; recovery: SetRecovery } | null;
}

/** Removes a crashed run's leftovers and finishes its half-written records. */
export async function cleanAfterCrash(options: CleanAfterCrashOptions = {}): Promise<CleanReport> {
  const cwd = options.cwd ?? process.cwd();
  const { removed, kept } = await cleanLeftovers({
    ...(options.tmpDir === undefined ? {} : { tmpDir: options.tmpDir }),
    cacheDir: options.cacheDir ?? defaultCacheDir(),
    ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
  });
  let dir: string | null = options.out === undefined ? null : resolve(cwd, options.out);
  if (dir === null)
    dir = await repoRoot(cwd).then(
      (root) => join(root, DOCS.measurements),
      () => null,
    );
  const records =
    dir === null || options.dryRun === true ? null : { dir, recovery: await recoverFileSets(dir) };
  return { removed, kept, records };
}

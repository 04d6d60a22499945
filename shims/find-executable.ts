import { closeSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** The first line of every generated shim carries this, so pass-through never lands on a shim. */
export const SHIM_MARKER = "witness-shim v1";

/** True when `file` is a witness shim (its first bytes carry the marker). */
export function isWitnessShim(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(128);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString("latin1").includes(SHIM_MARKER);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** True for a regular file with an execute bit. */
export function isExecutableFile(file: string): boolean {
  try {
    const stat = statSync(file);
    // Any execute bit will do: the check is a lookup, not a permission proof.
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Where to look for an executable, and which directories never count. */
export interface FindExecutableOptions {
  /** The PATH to search (colon-separated). */
  path: string;
  /** Directories skipped whatever PATH says (the shim directory itself). */
  exclude?: readonly string[];
  cwd?: string;
}

/** The absolute path of `name` on PATH outside the excluded dirs, never a witness shim; or undefined. */
export function findExecutable(name: string, options: FindExecutableOptions): string | undefined {
  const cwd = options.cwd ?? process.cwd();
  const excluded = new Set((options.exclude ?? []).map((d) => realOrSelf(resolve(cwd, d))));
  for (const entry of options.path.split(delimiter)) {
    // An empty or relative PATH entry depends on the caller's cwd: a shim cannot rely on it.
    if (entry === "" || !isAbsolute(entry)) continue;
    if (excluded.has(realOrSelf(entry))) continue;
    const candidate = join(entry, name);
    if (isExecutableFile(candidate) && !isWitnessShim(candidate)) return candidate;
  }
  return undefined;
}

// The git top level of a directory, found on disk (no git process): the workspace's upper bound.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The nearest directory at or above `cwd` holding a `.git` entry; `cwd` itself outside a repository. */
export function gitRoot(cwd: string, exists: (path: string) => boolean = existsSync): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (exists(resolve(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** The directories strictly above `root`, nearest first, `/` last. */
export function ancestorsAbove(root: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(resolve(root)); ; dir = dirname(dir)) {
    if (dir === resolve(root)) break;
    out.push(dir);
    if (dirname(dir) === dir) break;
  }
  return out;
}

/** The directories from `root` down to `cwd`, root-most first (just `[cwd]` when equal). */
export function pathFromRoot(root: string, cwd: string): string[] {
  const out: string[] = [];
  const top = resolve(root);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    out.unshift(dir);
    if (dir === top || dirname(dir) === dir) break;
  }
  return out;
}

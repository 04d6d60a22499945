// Where a cell's root lives: the temp directory, or `cells/` under witness's cache directory (a
// fixture's `cell: {root: home}`), never inside a git repository (the CLI would find it).
import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

import { defaultCacheDir } from "../../core/cache-dir.js";
import { UsageError } from "../../core/errors.js";
import { makeDirs } from "../../core/make-dirs.js";
import type { CellRootKind } from "../contracts/fixture.js";

/**
 * The nearest directory at or above `dir` that git would take for a repository's top (a `.git`
 * file, or a `.git` directory with a HEAD), or null. An empty `.git` directory is no repository.
 */
export function enclosingRepository(dir: string): string | null {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const git = join(at, ".git");
    if (existsSync(join(git, "HEAD")) || (existsSync(git) && !statSync(git).isDirectory()))
      return at;
    if (dirname(at) === at) return null;
  }
}

/**
 * The directory a cell of `kind` is made in (created for `home`). A UsageError when it lies inside
 * a git repository: the CLI, discovering that repository above its workspace, would read it.
 */
export async function cellRootBase(kind: CellRootKind, cacheDir?: string): Promise<string> {
  if (kind === "temp") return tmpdir();
  const base = join(cacheDir ?? defaultCacheDir(), "cells");
  const repo = enclosingRepository(base);
  if (repo !== null)
    throw new UsageError(
      `fixture cell.root home: expected witness's cache directory outside any git repository; ${base} is inside ${repo} (set WITNESS_CACHE elsewhere)`,
    );
  await makeDirs(base);
  return base;
}

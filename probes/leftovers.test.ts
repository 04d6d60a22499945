import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { currentOwner } from "../core/owner.js";
import { tempDir } from "../test/support/temp-dir.js";
import { cleanLeftovers, disownTempDir, makeOwnedTempDir, OWNER_FILE } from "./leftovers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-leftovers-test-"));
});
afterEach(() => cleanup());

// A directory as a crashed run leaves it: its owner is this pid with another start time, which
// is what a later process that reused the pid looks like.
async function crashedLeftover(name: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, "home"), { recursive: true });
  const owner = currentOwner();
  const start = owner.start === null ? null : owner.start + 1;
  const gone = start === null ? { pid: 2 ** 22 + 1, start } : { ...owner, start };
  await writeFile(join(path, OWNER_FILE), JSON.stringify(gone));
  return path;
}

describe("witness clean's leftovers", () => {
  it("removes cells and namespace directories whose witness is gone, saying why", async () => {
    const cell = await crashedLeftover("witness-cell-abc123");
    const netns = await crashedLeftover("witness-netns-def456");
    const { removed, kept } = await cleanLeftovers({ tmpDir: dir });
    expect(removed.map((l) => l.path)).toEqual([cell, netns]);
    expect(removed[0]?.why).toMatch(/^witness pid \d+ is gone$/);
    expect(kept).toEqual([]);
    expect(existsSync(cell) || existsSync(netns)).toBe(false);
  });

  it("removes a crashed run's cell under the cache directory's cells/", async () => {
    const cache = join(dir, "cache");
    await mkdir(join(cache, "cells"), { recursive: true });
    const cell = await crashedLeftover(join("cache", "cells", "witness-cell-home01"));
    const { removed } = await cleanLeftovers({ tmpDir: join(dir, "none"), cacheDir: cache });
    expect(removed.map((l) => l.path)).toEqual([cell]);
    expect(existsSync(cell)).toBe(false);
  });

  it("keeps a live run's directory, a kept cell and anything not witness's", async () => {
    const live = await makeOwnedTempDir("witness-cell-", dir);
    const keptCell = await makeOwnedTempDir("witness-cell-", dir);
    disownTempDir(keptCell);
    const other = join(dir, "someone-else");
    await mkdir(other);
    const { removed, kept } = await cleanLeftovers({ tmpDir: dir });
    expect(removed).toEqual([]);
    expect(kept.map((l) => [l.path, l.why]).sort()).toEqual(
      [
        [live, `in use by witness pid ${process.pid}`],
        [keptCell, "no owner file: kept with --keep, or made by an older witness"],
      ].sort(),
    );
    expect([live, keptCell, other].every((p) => existsSync(p))).toBe(true);
  });

  it("only reports under dryRun", async () => {
    const cell = await crashedLeftover("witness-cell-xyz789");
    const { removed } = await cleanLeftovers({ tmpDir: dir, dryRun: true });
    expect(removed.map((l) => l.path)).toEqual([cell]);
    expect(existsSync(cell)).toBe(true);
  });
});

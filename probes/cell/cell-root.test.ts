import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../../core/errors.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { cellRootBase, enclosingRepository } from "./cell-root.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-cell-root-"));
});
afterEach(() => cleanup());

describe("where a cell's root lives", () => {
  it("is the temp directory by default", async () => {
    expect(await cellRootBase("temp", join(dir, "cache"))).toBe(tmpdir());
  });

  it("is cells/ under the cache directory for home, made on first use", async () => {
    const base = await cellRootBase("home", join(dir, "cache"));
    expect(base).toBe(join(dir, "cache", "cells"));
    expect(existsSync(base)).toBe(true);
  });

  it("is refused inside a git repository, naming both", async () => {
    await mkdir(join(dir, "repo", ".git"), { recursive: true });
    await writeFile(join(dir, "repo", ".git", "HEAD"), "ref: refs/heads/main\n");
    const cache = join(dir, "repo", "cache");
    expect(enclosingRepository(cache)).toBe(join(dir, "repo"));
    const refused = cellRootBase("home", cache);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(`is inside ${join(dir, "repo")}`);
    expect(existsSync(cache)).toBe(false);
  });
});

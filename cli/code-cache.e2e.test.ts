// The code cache through the built binary: written once by a start that ran a command, run from,
// replaced when damaged, kept out of a fresh HOME. code-cache.test.ts checks the file's name.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildChildEnv } from "../core/child-env.js";
import { runBuiltCli } from "../test/support/built-cli.js";
import { CODE_CACHE_FOLDER } from "./code-cache.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-code-cache-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("the built CLI's code cache", () => {
  const run = (env: Record<string, string>, args = ["drift", "--dir", dir]) =>
    runBuiltCli(args, {
      cwd: dir,
      env: buildChildEnv({ parent: process.env, set: { HOME: join(dir, "home"), ...env } }),
      timeoutMs: 30_000,
    });

  it("writes a file on a first start and runs from it, unchanged, on the next", async () => {
    const cache = join(dir, "cache");
    await mkdir(cache);
    const first = await run({ WITNESS_CACHE: cache });
    expect([first.exitCode, first.stdout, first.stderr]).toEqual([0, "No records.\n", ""]);
    const files = await readdir(join(cache, CODE_CACHE_FOLDER));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-drift\.bin$/);
    const file = join(cache, CODE_CACHE_FOLDER, files[0] ?? "");
    const written = (await stat(file)).mtimeMs;

    const second = await run({ WITNESS_CACHE: cache });
    expect([second.exitCode, second.stdout, second.stderr]).toEqual([0, "No records.\n", ""]);
    // A rejected cache would have been written again.
    expect((await stat(file)).mtimeMs).toBe(written);
  });

  it("replaces a damaged file and still runs the command", async () => {
    const cache = join(dir, "cache");
    await mkdir(cache);
    await run({ WITNESS_CACHE: cache });
    const [name] = await readdir(join(cache, CODE_CACHE_FOLDER));
    const file = join(cache, CODE_CACHE_FOLDER, name ?? "");
    await writeFile(file, "not a code cache");
    const again = await run({ WITNESS_CACHE: cache });
    expect([again.exitCode, again.stdout]).toEqual([0, "No records.\n"]);
    expect((await readFile(file)).length).toBeGreaterThan(1000);
  });

  it("removes another bundle's files once they are an hour old, and keeps newer ones", async () => {
    const cache = join(dir, "cache");
    const folder = join(cache, CODE_CACHE_FOLDER);
    await mkdir(folder, { recursive: true });
    const old = join(folder, "ffffffffffffffff-node20-x64-adr.bin");
    const recent = join(folder, "eeeeeeeeeeeeeeee-node20-x64-adr.bin");
    await writeFile(old, "x");
    await writeFile(recent, "x");
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    await run({ WITNESS_CACHE: cache });
    const left = await readdir(folder);
    expect(left).toContain("eeeeeeeeeeeeeeee-node20-x64-adr.bin");
    expect(left).not.toContain("ffffffffffffffff-node20-x64-adr.bin");
    expect(left.filter((f) => f.endsWith("-drift.bin"))).toHaveLength(1);
  });

  it("writes nothing for a start that only printed help or the version", async () => {
    const cache = join(dir, "cache");
    await mkdir(cache);
    for (const args of [["drift", "--help"], ["--version"]]) {
      const r = await run({ WITNESS_CACHE: cache }, args);
      expect(r.exitCode).toBe(0);
    }
    expect(await readdir(cache)).toEqual([]);
  });

  it("writes nothing into a fresh HOME, nor for a mistyped command", async () => {
    const home = join(dir, "home");
    await mkdir(home);
    const fresh = await run({});
    expect([fresh.exitCode, fresh.stdout]).toEqual([0, "No records.\n"]);
    expect(await readdir(home)).toEqual([]);

    const cache = join(dir, "cache");
    await mkdir(cache);
    const typo = await run({ WITNESS_CACHE: cache }, ["drfit"]);
    expect(typo.exitCode).toBe(2);
    expect(await readdir(cache)).toEqual([]);
  });
});

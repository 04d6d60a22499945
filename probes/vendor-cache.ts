// Vendor CLI cache: exact npm versions installed once per name@version, resolved to their binary.
import { accessSync, constants, existsSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { cliRow, packageFor } from "../clis/names.js";
import { defaultCacheDir } from "../core/cache-dir.js";
import { buildChildEnv } from "../core/child-env.js";
import { UsageError } from "../core/errors.js";
import { runProcess } from "../core/exec.js";
import { makeDirs } from "../core/make-dirs.js";
import type { CliRef } from "./contracts/probe-spec.js";
import { lifetimeContainment } from "./isolation/contain.js";
import { makeOwnedDir, makeOwnedTempDir, OWNER_FILE, STAGING_PREFIX } from "./leftovers.js";
import { npmEnv, npmRelevantLine } from "./npm.js";
import { launchOn, pathFor, type RuntimeChoice, runtimeFor } from "./runtime.js";

/** What the cache keeps beside each install, so a later run trusts it without re-running npm. */
export const vendorEntrySchema = z.object({
  name: z.string(),
  version: z.string(),
  pkg: z.string(),
  /** Binary path relative to the entry directory, never out of it (no absolute path, `.` or `..`). */
  bin: z.string().regex(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]+$/),
  /** The version the binary reported with --version. */
  reported: z.string(),
  installedAt: z.string(),
  /**
   * Set on an entry that is not npm's install of the package (a test's hand-made CLI): why. Such
   * an entry runs, and every record made from it says so; without it, an entry npm recorded no
   * integrity for is refused.
   */
  standIn: z.string().min(1).optional(),
});
export type VendorEntry = z.infer<typeof vendorEntrySchema>;

const ENTRY_FILE = "witness-vendor.json";
/** Written into an install's prefix by an installer that is not npm (tests' fake npm): why. */
export const STAND_IN_FILE = "witness-stand-in";

/** Where installs live: WITNESS_CACHE, else $XDG_CACHE_HOME/witness, else ~/.cache/witness. */
export { defaultCacheDir };

/** Options shared by the cache operations. */
export interface VendorCacheOptions {
  cacheDir?: string;
  /** Environment npm and the version check start from (default process.env; allow-listed). */
  env?: Readonly<Record<string, string | undefined>>;
}

function entryDir(cacheDir: string, ref: CliRef): string {
  return join(cacheDir, `${ref.name}@${ref.version}`);
}

async function readEntry(dir: string): Promise<VendorEntry | null> {
  try {
    const parsed = vendorEntrySchema.safeParse(
      JSON.parse(await readFile(join(dir, ENTRY_FILE), "utf8")),
    );
    return parsed.success && existsSync(join(dir, parsed.data.bin)) ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Parses the first dotted version number out of a `--version` line. */
export function parseReportedVersion(text: string): string | null {
  return /\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?/.exec(text)?.[0] ?? null;
}

async function reportVersion(
  bin: string,
  cwd: string,
  parent: VendorCacheOptions["env"],
  choice: RuntimeChoice,
) {
  // A throwaway HOME, XDG directories and TMPDIR: even `--version` writes state (opencode makes
  // its config, data, cache and temp directories), and never in the operator's.
  const home = await makeOwnedTempDir("witness-version-");
  const set = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    TMPDIR: join(home, "tmp"),
    // On the runtime the CLI will run on: pi 1.6.0's --version crashes on Node 20.
    PATH: pathFor(choice.runtime, (parent ?? process.env).PATH ?? "", existsSync),
  };
  const start = launchOn(choice, bin, ["--version"]);
  try {
    await mkdir(set.TMPDIR);
    const result = await runContained(start.file, start.args, {
      env: buildChildEnv({ parent: parent ?? process.env, set }),
      cwd,
      timeoutMs: 30_000,
    });
    // pi prints its version on stderr.
    const version = parseReportedVersion(result.stdout) ?? parseReportedVersion(result.stderr);
    return { result, version };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** The first executable `name` in the directories of `path`, or null. */
export function onPath(name: string, path = ""): string | null {
  for (const dir of path.split(":").filter((d) => d.startsWith("/"))) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Runs npm, or a freshly installed CLI, the way a probe runs a CLI (probes/isolation/contain.ts):
 * it and everything it starts die with witness however witness dies, SIGKILL included.
 */
export async function runContained(
  file: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd: string; timeoutMs: number },
) {
  const contained = await lifetimeContainment();
  return runProcess({
    ...contained.wrap(file, args),
    ...options,
    killSignal: "SIGKILL",
    processGroup: contained.kind === "process-group",
  });
}

// One install per cache entry in this process: concurrent spawns of one version share it.
const pending = new Map<string, Promise<{ bin: string; version: string }>>();

/** Installs `ref` into the cache unless present; returns its binary and the version it reports. */
export function ensureCli(
  ref: CliRef,
  options: VendorCacheOptions = {},
): Promise<{ bin: string; version: string }> {
  const key = entryDir(options.cacheDir ?? defaultCacheDir(options.env), ref);
  const running = pending.get(key);
  if (running !== undefined) return running;
  const started = install(ref, options).finally(() => pending.delete(key));
  pending.set(key, started);
  return started;
}

async function install(
  ref: CliRef,
  options: VendorCacheOptions,
): Promise<{ bin: string; version: string }> {
  const cacheDir = options.cacheDir ?? defaultCacheDir(options.env);
  const dir = entryDir(cacheDir, ref);
  const existing = await readEntry(dir);
  if (existing) {
    await refuseUnverified(dir, existing);
    return { bin: join(dir, existing.bin), version: existing.reported };
  }

  const bin = cliRow(ref.name).bin ?? ref.name;
  const pkg = packageFor(ref.name, ref.version);
  await makeDirs(cacheDir);
  // Owned, so `witness clean` removes what an install cut off by a crash left (about 370 MB).
  const staging = await makeOwnedDir(cacheDir, `${STAGING_PREFIX}${ref.name}@${ref.version}-`);
  try {
    const env = npmEnv(options.env ?? process.env);
    // Resolved here: a launcher would report a missing npm as its own exit 127.
    const npmBin = onPath("npm", env.PATH);
    if (npmBin === null)
      throw new UsageError(
        `cannot install ${ref.name}@${ref.version}: npm could not start (ENOENT: not on PATH)`,
      );
    const npm = await runContained(
      npmBin,
      [
        "install",
        "--prefix",
        staging,
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `${pkg}@${ref.version}`,
      ],
      { env, cwd: staging, timeoutMs: 10 * 60_000 },
    );
    if (npm.spawnError !== null) {
      throw new UsageError(
        `cannot install ${ref.name}@${ref.version}: npm could not start (${npm.spawnError})`,
      );
    }
    if (npm.exitCode !== 0) {
      const said = npmRelevantLine(npm.stderr.trim() || npm.stdout);
      throw new UsageError(`cannot install ${ref.name}@${ref.version} (${pkg}) from npm: ${said}`);
    }
    const relBin = cliRow(ref.name).nativeBin ?? join("node_modules", ".bin", bin);
    if (!existsSync(join(staging, relBin))) {
      throw new UsageError(`installed ${pkg}@${ref.version} but it has no ${relBin}`);
    }
    const choice = await runtimeFor(join(staging, relBin), options);
    const { result, version } = await reportVersion(
      join(staging, relBin),
      staging,
      options.env,
      choice,
    );
    if (version !== ref.version) {
      const said = (result.stdout + result.stderr).trim().split("\n")[0] ?? "";
      throw new UsageError(
        `${pkg}@${ref.version} reports version ${JSON.stringify(said)}, expected ${ref.version}`,
      );
    }
    const standIn = await readFile(join(staging, STAND_IN_FILE), "utf8").catch(() => "");
    const entry: VendorEntry = {
      name: ref.name,
      version: ref.version,
      pkg,
      bin: relBin,
      reported: version,
      installedAt: new Date().toISOString(),
      ...(standIn.trim() === "" ? {} : { standIn: standIn.trim() }),
    };
    await refuseUnverified(staging, entry);
    await writeFile(join(staging, ENTRY_FILE), `${JSON.stringify(entry, null, 2)}\n`);
    // The cache entry is no leftover: only the staging directory is owned.
    await rm(join(staging, OWNER_FILE));
    // mkdtemp made it 0700: a sandboxed spawn runs as a host uid of its own and must reach it.
    await chmod(staging, 0o755);
    try {
      await rename(staging, dir);
    } catch (error) {
      // Another run won the race: keep its copy, discard ours.
      const winner = await readEntry(dir);
      if (winner === null) throw error;
      return { bin: join(dir, winner.bin), version: winner.reported };
    }
    return { bin: join(dir, relBin), version };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** True when `ref` is installed in the cache (no npm needed). */
export async function isCached(ref: CliRef, options: VendorCacheOptions = {}): Promise<boolean> {
  return (
    (await readEntry(entryDir(options.cacheDir ?? defaultCacheDir(options.env), ref))) !== null
  );
}

/** Every complete install in the cache, sorted by name@version. */
export async function listCli(
  options: VendorCacheOptions = {},
): Promise<(VendorEntry & { dir: string })[]> {
  const cacheDir = options.cacheDir ?? defaultCacheDir(options.env);
  let names: string[];
  try {
    names = await readdir(cacheDir);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names
      .filter((n) => !n.startsWith("."))
      .sort()
      .map(async (n) => {
        const entry = await readEntry(join(cacheDir, n));
        return entry === null ? null : { ...entry, dir: join(cacheDir, n) };
      }),
  );
  return entries.filter((e) => e !== null);
}

/** The binary of an installed `ref`, or null when it is not in the cache. */
export async function cliPath(
  ref: CliRef,
  options: VendorCacheOptions = {},
): Promise<string | null> {
  const dir = entryDir(options.cacheDir ?? defaultCacheDir(options.env), ref);
  const entry = await readEntry(dir);
  if (entry === null) return null;
  await refuseUnverified(dir, entry);
  return join(dir, entry.bin);
}

/** One package npm installed for a cache entry, as its hidden lockfile names it. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** npm's Subresource Integrity string (`sha512-…`), null when the lockfile has none. */
  integrity: string | null;
}

/** What a record says of the CLI that ran: its binary, what that resolves to, npm's integrity. */
export interface InstalledFacts {
  name: string;
  version: string;
  pkg: string;
  bin: string;
  /** The binary with every symlink resolved (the file that actually runs). */
  resolvedBin: string;
  /** npm's integrity of the CLI's own package, from the install's hidden lockfile. */
  integrity: string | null;
  /** Every package of the install (platform binaries included), from the same lockfile. */
  packages: InstalledPackage[];
  /** Why the entry is a stand-in, not npm's install of the package (`VendorEntry.standIn`). */
  standIn?: string;
}

const hiddenLockSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({ version: z.string().optional(), integrity: z.string().optional() }),
  ),
});

async function lockedPackages(dir: string): Promise<InstalledPackage[]> {
  try {
    const lock = hiddenLockSchema.parse(
      JSON.parse(await readFile(join(dir, "node_modules", ".package-lock.json"), "utf8")),
    );
    return Object.entries(lock.packages)
      .filter(([path]) => path.startsWith("node_modules/"))
      .map(([path, p]) => ({
        name: path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length),
        version: p.version ?? "",
        integrity: p.integrity ?? null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    // No hidden lockfile (not installed by npm): the facts say so with nulls.
    return [];
  }
}

/**
 * Throws (exit 2) unless the entry in `dir` is npm's install of its package (its hidden lockfile
 * names the package with an integrity) or says why it is a stand-in: a wrapper dropped in by hand
 * as the CLI must never run, and be recorded, as the real package.
 */
export async function refuseUnverified(dir: string, entry: VendorEntry): Promise<void> {
  if (entry.standIn !== undefined) return;
  const packages = await lockedPackages(dir);
  const own = packages.find((p) => p.name === entry.pkg);
  const file = join(dir, ENTRY_FILE);
  const redo = `remove the entry and run \`witness vendors add ${entry.name}@${entry.version}\`, or, for a test's hand-made CLI, say why in \`standIn\``;
  if (own === undefined)
    throw new UsageError(
      `${file}: standIn: expected it set; npm installed no ${entry.pkg} here; ${redo}`,
    );
  if (own.integrity === null)
    throw new UsageError(
      `${file}: standIn: expected it set; npm recorded no integrity for ${entry.pkg}; ${redo}`,
    );
}

/** The installed facts of `ref`, or null when it is not in the cache (reads files, runs nothing). */
export async function installedFacts(
  ref: CliRef,
  options: VendorCacheOptions = {},
): Promise<InstalledFacts | null> {
  const dir = entryDir(options.cacheDir ?? defaultCacheDir(options.env), ref);
  const entry = await readEntry(dir);
  if (entry === null) return null;
  const bin = join(dir, entry.bin);
  const packages = await lockedPackages(dir);
  return {
    name: ref.name,
    version: entry.reported,
    pkg: entry.pkg,
    bin,
    resolvedBin: await realpath(bin).catch(() => bin),
    integrity: packages.find((p) => p.name === entry.pkg)?.integrity ?? null,
    packages,
    ...(entry.standIn === undefined ? {} : { standIn: entry.standIn }),
  };
}

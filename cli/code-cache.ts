// Starts the CommonJS bundle of the CLI (dist/cli/witness.cjs) with V8's code cache: a start that
// finds the bytecode a previous start of the same command left skips compiling the bundle and most
// of its functions again, some 40 ms of CPU (docs/benchmarks.md, startup-gate). Node 20 has no
// module.enableCompileCache, and vm.Script takes cached data for CommonJS only, hence the format;
// the bundle holds no import() either, which a script from cached data cannot run on Node 20.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import vm from "node:vm";

import { writeFileAtomicSync } from "../core/atomic.js";
import { defaultCacheDir } from "../core/cache-dir.js";

/** Setting this variable to any value turns the code cache off (nothing read, nothing written). */
export const NO_CODE_CACHE_VAR = "WITNESS_NO_CODE_CACHE";
/** The folder of the cache directory the code cache lives in. */
export const CODE_CACHE_FOLDER = "code-cache";

// Other bundles' files (an older build, another checkout) go once untouched this long.
const STALE_AFTER_MS = 60 * 60 * 1000;

/** What one start runs and where its code cache may go. */
export interface BundleStart {
  /** The CommonJS bundle to run. */
  bundle: string;
  /** The bundle's content hash from the build; without one nothing is cached. */
  bundleId?: string;
  /** The arguments after `witness`, whose first word names the cache file. */
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The cache file for this start, or null when there may be none: no bundle id, the variable set,
 * `--help` or `--version`, or no cache directory yet (the code cache never creates one, so a fresh HOME, such as a probe
 * cell's, gets no files).
 */
export function codeCacheFile(start: BundleStart): string | null {
  if (start.bundleId === undefined || start.env[NO_CODE_CACHE_VAR] !== undefined) return null;
  // Help and the version run none of a command's code: the ES module bundle starts them faster.
  if (start.argv.some((a) => a === "--help" || a === "--version")) return null;
  const root = defaultCacheDir(start.env);
  try {
    if (!statSync(root).isDirectory()) return null;
  } catch {
    return null;
  }
  // One file per command: each holds the functions its command ran, not every command's.
  const word = /^[a-z][a-z-]{0,39}$/.test(start.argv[0] ?? "") ? start.argv[0] : "none";
  const name = `${start.bundleId}-node${process.versions.node}-${process.arch}-${word}.bin`;
  return join(root, CODE_CACHE_FOLDER, name);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

// Writes the cache after the command ran, so it holds the functions the command compiled.
// A failed write only costs the next start its speed.
function writeCache(file: string, bundleId: string, script: vm.Script): void {
  try {
    const dir = dirname(file);
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    writeFileAtomicSync(file, script.createCachedData());
    const now = Date.now();
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(`${bundleId}-`)) continue;
      const path = join(dir, entry);
      if (now - statSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {
    // read-only or full cache directory: run without a cache
  }
}

// The file is written once per bundle, so by a start that ran the command's own code: not one
// that stopped at a usage or input error (exit 2, so a mistyped word gets no file) or an internal
// one. A gate that fails (exit 1) ran it all.
function worthKeeping(code: number): boolean {
  return code === 0 || code === 1;
}

/** Compiles and runs the bundle as a CommonJS module, with the code cache kept in `file`. */
export function startBundle(start: BundleStart, file: string): void {
  const cachedData = readCache(file);
  // The bundle's first line becomes the wrapper's: line numbers in stack traces stay the file's.
  const script = new vm.Script(Module.wrap(readFileSync(start.bundle, "utf8")), {
    filename: start.bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const id = start.bundleId;
  if (id !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    process.once("exit", (code) => {
      if (worthKeeping(code)) writeCache(file, id, script);
    });
  }
  const wrapper = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} };
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(start.bundle),
    module,
    start.bundle,
    dirname(start.bundle),
  );
}

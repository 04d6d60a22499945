// The built `witness` CLI that end-to-end tests run, refused when dist/ is older than its sources.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

import { type ExecRequest, type ExecResult, runProcess } from "../../core/exec.js";

/** The repository witness itself lives in. */
export const WITNESS_ROOT = resolve(import.meta.dirname, "..", "..");

/** The built CLI's entry point: the bundle scripts/bundle-cli.mjs writes. */
export const BUILT_CLI = join(WITNESS_ROOT, "dist", "cli", "main.js");

/** esbuild's account of the bundle: every source in it and what each imports. */
export const BUNDLE_METAFILE = join(WITNESS_ROOT, "dist", "cli", "bundle-meta.json");

// The folders tsconfig.build.json compiles, and the assets post-build copies beside them.
const BUILT_FOLDERS = [
  "core",
  "clis",
  "transcripts",
  "orchestrator",
  "shims",
  "probes",
  "prereg",
  "measurements",
  "adr",
  "cli",
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sources(path);
    return /\.test\.ts$/.test(entry.name) ? [] : [path];
  });
}

/** Source files whose built copy in dist/ is missing or older than they are (empty when fresh). */
export function staleBuildOutputs(root = WITNESS_ROOT): string[] {
  const stale: string[] = [];
  for (const folder of BUILT_FOLDERS) {
    for (const source of sources(join(root, folder))) {
      if (!/\.(ts|sh|awk)$/.test(source) || source.endsWith(".d.ts")) continue;
      const rel = relative(root, source);
      const built = join(root, "dist", rel.replace(/\.ts$/, ".js"));
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) stale.push(rel);
    }
  }
  return stale;
}

let checked = false;

/**
 * The built CLI's path; throws, naming the stale files, when `npm run build` is owed, and in the
 * fast tier, which never runs it.
 */
export function builtCli(): string {
  if (process.env.WITNESS_TEST_TIER === "fast")
    throw new Error(
      "the fast tier runs no built CLI: run the command in process (test/support/in-process-cli.ts) or move the test to a *.e2e.test.ts file",
    );
  if (checked) return BUILT_CLI;
  const stale = staleBuildOutputs();
  if (stale.length > 0) {
    const shown =
      stale.slice(0, 5).join(", ") + (stale.length > 5 ? ` and ${stale.length - 5} more` : "");
    throw new Error(`dist/ is older than its sources (${shown}): run \`npm run build\` first`);
  }
  checked = true;
  return BUILT_CLI;
}

/** Runs the built CLI with `args` (node as the interpreter); the rest as for runProcess. */
export function runBuiltCli(
  args: readonly string[],
  options: Omit<ExecRequest, "file" | "args">,
): Promise<ExecResult> {
  return runProcess({ ...options, file: process.execPath, args: [builtCli(), ...args] });
}

// The pass-through shims an orchestrator reaches its CLIs through: `<cell>/witness-bin/<bin>`, a sh
// launcher of assets/cell-shim.mjs with a config naming the pinned CLI, its runtime and witness's
// plumbing (the driver's endpoint variables, with the spawn number filled in by the shim).
import { chmod, copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import type { ProbeCliName } from "../../clis/names.js";

/** Bytes of each of a spawn's stdin, stdout and stderr a shim keeps (the counts go on past it). */
export const STREAM_BOUND = 1024 * 1024;

/** Stands for the orchestrator's argv in the CLI's arguments, and for the spawn number in a route. */
export const ARGV_SLOT = "@@ARGV@@";
export const SPAWN_SLOT = "@@SPAWN@@";

/** What one CLI's shim runs, and the plumbing it sets. */
export interface ShimTarget {
  cli: ProbeCliName;
  /**
   * The program and its arguments: the first `head` start the CLI (its runtime's script path),
   * the rest are the driver's flags around `ARGV_SLOT`; the shim puts those flags after the
   * orchestrator's argv (before it when the argv holds `--`).
   */
  file: string;
  args: string[];
  head: number;
  /** Set over the caller's environment; `SPAWN_SLOT` becomes the spawn number. */
  env: Record<string, string>;
  /** PATH for a caller whose environment has none. */
  path: string;
}

/** The cell's shims: each CLI's shim path, and where the spawns are recorded. */
export interface CellShims {
  dir: string;
  spawnsDir: string;
  paths: Partial<Record<ProbeCliName, string>>;
}

const sq = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** Writes the shims for `targets` into `<root>/witness-bin`; `node` runs them. */
export async function writeCellShims(input: {
  root: string;
  node: string;
  targets: readonly ShimTarget[];
  maxSpawns: number;
}): Promise<CellShims> {
  const dir = join(input.root, "witness-bin");
  const spawnsDir = join(input.root, "spawns");
  await mkdir(dir);
  await mkdir(spawnsDir);
  const program = join(dir, ".cell-shim.mjs");
  await copyFile(new URL("./assets/cell-shim.mjs", import.meta.url), program);
  const paths: CellShims["paths"] = {};
  for (const target of input.targets) {
    const config = join(dir, `.${target.cli}.json`);
    const body = { ...target, spawnsDir, maxSpawns: input.maxSpawns, bound: STREAM_BOUND };
    await writeFile(config, JSON.stringify(body));
    // No .js suffix and an absolute interpreter: the Agent SDK runs a .js path with the node of
    // the child's PATH, and a caller's own environment may have no PATH at all.
    const bin = join(dir, CLI_CATALOG[target.cli].bin ?? target.cli);
    const launcher = `#!/bin/sh\nexec ${sq(input.node)} ${sq(program)} ${sq(config)} "$@"\n`;
    await writeFile(bin, launcher);
    await chmod(bin, 0o755);
    paths[target.cli] = bin;
  }
  return { dir, spawnsDir, paths };
}

// The environment of one spawn of a vendor CLI: the allow-list, a PATH cut down to the
// directories the spawn needs, the cell's, the policy's and the driver's variables, then the arm's.
import { existsSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";

import { buildChildEnv } from "../core/child-env.js";
import { applyLaunchEnv, type LaunchEnv } from "./contracts/launch-env.js";
import type { Runtime } from "./contracts/runtime.js";
import { pathFor } from "./runtime.js";

/** Directories every Unix keeps its own programs in: always kept when on the parent's PATH. */
export const SYSTEM_DIRS: readonly string[] = [
  "/usr/local/sbin",
  "/usr/local/bin",
  "/usr/sbin",
  "/usr/bin",
  "/sbin",
  "/bin",
];

/** Programs a spawn runs by name: node (the CLIs' `#!/usr/bin/env node`), git, the shells. */
export const NEEDED_TOOLS: readonly string[] = ["node", "git", "sh", "bash", "env"];

/**
 * The parent's PATH reduced to the system directories and the first directory holding each
 * needed tool, in the parent's order: the operator's other directories (`~/.cargo/bin`, pyenv
 * shims …) neither reach the CLI nor the record. Where no `node` is on PATH, the directory of the
 * Node running witness is added.
 */
export function spawnPath(
  parentPath: string,
  options: { nodeDir?: string; exists?: (path: string) => boolean } = {},
): string {
  const exists = options.exists ?? existsSync;
  const entries = [...new Set(parentPath.split(delimiter).filter((d) => isAbsolute(d)))];
  const needed = new Set<string>();
  for (const tool of NEEDED_TOOLS) {
    const dir = entries.find((d) => exists(join(d, tool)));
    if (dir !== undefined) needed.add(dir);
  }
  const kept = entries.filter((d) => SYSTEM_DIRS.includes(d) || needed.has(d));
  if (!entries.some((d) => needed.has(d) && exists(join(d, "node"))))
    kept.push(options.nodeDir ?? dirname(process.execPath));
  return [...new Set(kept)].join(delimiter);
}

/** The variables each layer adds to a spawn's environment. */
export interface SpawnEnvParts {
  /** The cell's HOME, XDG, TMPDIR, CODEX_HOME and git isolation. */
  cell: Readonly<Record<string, string>>;
  /** A rendered node's policy variables. */
  planned?: Readonly<Record<string, string>>;
  /** The driver's endpoint, dummy key and quiet switches. */
  launched: Readonly<Record<string, string>>;
  /** Names of `launched` left out: a switch that would keep the CLI off a fixture's flag cache. */
  dropped?: readonly string[];
  /** The arm's own `launch.env`, applied last. */
  launch?: LaunchEnv;
  /** The CLI's runtime: a Node's directory goes first on PATH (the agent's shell finds it too). */
  runtime?: Runtime;
}

/** The spawn's environment, built from `parent` (default process.env) and the layers. */
export function spawnEnv(
  parts: SpawnEnvParts,
  parent: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  // The arm's own changes come last: they may drop a variable the driver sets (IS_SANDBOX).
  return applyLaunchEnv(
    buildChildEnv({
      parent,
      set: {
        PATH:
          parts.runtime === undefined
            ? spawnPath(parent.PATH ?? "")
            : pathFor(parts.runtime, spawnPath(parent.PATH ?? ""), existsSync),
        ...parts.cell,
        ...(parts.planned ?? {}),
        ...Object.fromEntries(
          Object.entries(parts.launched).filter(([name]) => !parts.dropped?.includes(name)),
        ),
      },
    }),
    parts.launch,
  );
}

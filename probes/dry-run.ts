// What one spawn would launch, without launching it (`witness run --dry-run`): the binary, the
// argv the driver and the policy render, the environment, the planted files and the script, in
// a cell that exists only on paper (`<cell>` stands for its temp root, `<port>` for the fake's).
import { join } from "node:path";

import { CLI_CATALOG } from "../clis/catalog.js";
import { redactArgv, redactEnv } from "../core/redact.js";
import { type Cell, cellEnv, cellSentinelPath } from "./cell/cell.js";
import { resolveSentinelsDeep } from "./cell/markers.js";
import { type FileRoot, plantedMarkerNames, WORKSPACE_SENTINEL_DIR } from "./contracts/fixture.js";
import { cellLayout } from "./contracts/fixture-paths.js";
import type { LaunchEnv } from "./contracts/launch-env.js";
import { resolvePaths, resolvePathsDeep, WITNESS_CLI } from "./contracts/placeholders.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";
import type { Script } from "./contracts/script.js";
import { flagSwitches } from "./drivers/driver.js";
import { driverFor } from "./drivers/index.js";
import { renderNodeLaunch } from "./drivers/node-launch.js";
import { spawnEnv } from "./spawn-env.js";
import { cliPath, defaultCacheDir } from "./vendor-cache.js";

/** The stand-in for a cell's temp root in a dry run. */
export const DRY_CELL = "<cell>";
/** The stand-in for the fake server's port. */
export const DRY_PORT = "<port>";

/** One spawn as it would be launched. */
export interface DrySpawn {
  /** The binary (its cache path; `installed` says whether it is there yet). */
  file: string;
  installed: boolean;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** What the CLI would read on stdin (the prompt, for the CLIs that take it there). */
  stdin?: string;
  /** Every planted file: where, and its text (`{{marker:NAME}}` becomes a fresh value per spawn). */
  files: { path: string; content: string }[];
  /** The model script with its sentinel paths resolved. */
  script: Script;
}

// The cell's paths as `createCell` would lay them out under `root`; nothing is created.
function paperCell(spec: ProbeSpec, root: string): Cell {
  const layout = cellLayout(spec.fixture.workspace, spec.fixture.worktree);
  const home = join(root, layout.home);
  const tmp = join(root, "tmp");
  const codexHome = join(home, ".codex");
  const gitConfig = join(root, "gitconfig");
  const workspace = join(root, layout.workspace);
  const parent = join(root, layout.parent);
  const grandparent = join(root, layout.grandparent);
  const primary = spec.fixture.workspace === "nested-worktree" ? parent : workspace;
  const roots: Record<FileRoot, string> = {
    workspace,
    home,
    parent,
    grandparent,
    cell: root,
    primary,
  };
  return {
    root,
    home,
    tmp,
    codexHome,
    workspace,
    parent,
    grandparent,
    primary,
    cwd: spec.fixture.cwd === undefined ? workspace : join(workspace, spec.fixture.cwd),
    pathRoots: { ...roots, tmp, "witness-cli": WITNESS_CLI },
    sentinelDir: join(root, "sentinels"),
    workspaceSentinelDir: join(workspace, WORKSPACE_SENTINEL_DIR),
    sentinelsIn: spec.fixture.sentinelsIn ?? {},
    gitConfig,
    markers: plantedMarkerNames(spec.fixture).map((name) => ({
      name,
      value: `{{marker:${name}}}`,
      planted: [],
    })),
    env: cellEnv({ home, tmp, codexHome, gitConfig }),
  };
}

/** What `spec` would launch; reads the vendor cache for the binary's path, runs nothing. */
export async function drySpawn(
  spec: ProbeSpec,
  options: { cacheDir?: string } = {},
): Promise<DrySpawn> {
  const driver = driverFor(spec.cli.name);
  const cell = paperCell(spec, DRY_CELL);
  const cached = await cliPath(
    spec.cli,
    options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir },
  );
  const file =
    cached ??
    join(
      options.cacheDir ?? defaultCacheDir(),
      `${spec.cli.name}@${spec.cli.version}`,
      "node_modules",
      ".bin",
      CLI_CATALOG[spec.cli.name].bin,
    );
  const launch = resolvePathsDeep(spec.launch, cell.pathRoots);
  const planned =
    "node" in launch ? await renderNodeLaunch(launch, spec.cli.name, cell, { dryRun: true }) : null;
  const argv = planned ? planned.args : "argv" in launch ? launch.argv : [];
  const stdin = planned ? planned.stdin : "argv" in launch ? launch.stdin : undefined;
  const launched = driver.launch({
    argv,
    baseUrl: `http://127.0.0.1:${DRY_PORT}`,
    version: spec.cli.version,
    cell,
    ...(stdin === undefined ? {} : { stdin }),
  });
  const env = spawnEnv({
    cell: cell.env,
    ...(planned === null ? {} : { planned: planned.env }),
    launched: launched.env,
    dropped: flagSwitches(driver, spec.fixture),
    ...(launchEnvOf(launch) === undefined ? {} : { launch: launchEnvOf(launch) }),
  });
  // An orchestrator launch runs its command; the CLI is what its shim would start.
  const command = "orchestrator" in launch ? launch.orchestrator.command : null;
  return {
    file: command === null ? file : (command[0] ?? ""),
    installed: cached !== null,
    args: redactArgv(command === null ? launched.args : command.slice(1)),
    env: redactEnv(env),
    cwd: cell.cwd,
    ...(launched.stdin === undefined ? {} : { stdin: launched.stdin }),
    files: spec.fixture.files.map((f) => ({
      path: join(cell.pathRoots[f.at], f.path),
      content: resolvePaths(f.content, cell.pathRoots),
    })),
    script: resolvePathsDeep(
      resolveSentinelsDeep(spec.script, (name) => cellSentinelPath(cell, name)),
      cell.pathRoots,
    ),
  };
}

/** The variables an arm sets: an orchestrator's own, or the CLI launch's. */
function launchEnvOf(launch: ProbeSpec["launch"]): LaunchEnv | undefined {
  return "orchestrator" in launch ? launch.orchestrator.env : launch.env;
}

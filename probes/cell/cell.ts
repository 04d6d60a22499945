// The probe cell: a throwaway root per spawn with its own HOME, TMPDIR, git workspace and files.
import { readdirSync, rmSync } from "node:fs";
import { chmod, lchown, mkdir, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";

import { runProcess } from "../../core/exec.js";
import { parseWith } from "../../core/read-input.js";
import type { FileRoot, Fixture, SentinelPlacement } from "../contracts/fixture.js";
import { fixtureSchema, plantedMarkerNames, WORKSPACE_SENTINEL_DIR } from "../contracts/fixture.js";
import { cellLayout } from "../contracts/fixture-paths.js";
import { type PathRoot, resolvePaths, WITNESS_CLI } from "../contracts/placeholders.js";
import type { CellPaths } from "../drivers/driver.js";
import { makeOwnedTempDir, OWNER_FILE } from "../leftovers.js";
import { commitAll, makeWorkspaceSentinelDir, primaryRepo, worktreeRepo } from "./git-steps.js";
import { markerValue, plantMarkers, sentinelPath } from "./markers.js";

/** A built cell: every path the spawn and the observer need. */
export interface Cell {
  root: string;
  home: string;
  tmp: string;
  codexHome: string;
  workspace: string;
  parent: string;
  grandparent: string;
  /** The primary checkout: the workspace, or the checkout a nested worktree belongs to. */
  primary: string;
  /** Where the CLI starts: the workspace root, or the fixture's `cwd` below it. */
  cwd: string;
  /** What each `{{path:<root>}}` stands for in this cell. */
  pathRoots: Record<PathRoot, string>;
  /** Where sentinels placed in the cell live: `<root>/sentinels`. */
  sentinelDir: string;
  /** Where sentinels placed in the workspace live: `<workspace>/.witness-sentinels`. */
  workspaceSentinelDir: string;
  /** The fixture's `sentinelsIn`: every sentinel not named here lies in the cell. */
  sentinelsIn: Record<string, SentinelPlacement>;
  /** Git's global config file inside the cell (never the operator's). */
  gitConfig: string;
  /** Each marker's per-run value and the cell-relative files it was planted in. */
  markers: { name: string; value: string; planted: string[] }[];
  /** Environment every process in the cell gets: HOME, XDG, TMPDIR, CODEX_HOME, git isolation. */
  env: Record<string, string>;
}

/** What the cell is built from. */
export interface CellOptions {
  fixture: Fixture;
  nonce: string;
  /** Marks the workspace trusted in the CLI's own config (the driver's), when the fixture asks. */
  trust: (cell: CellPaths) => Promise<void>;
  /** Plants the CLI's own settings in the cell's HOME (the driver's), after the fixture's files. */
  prepare?: (cell: CellPaths) => Promise<void>;
  /** Parent environment for git (PATH, locale); the allow-list is applied by the caller. */
  baseEnv: Record<string, string>;
  /** Stops planting once aborted (a signal to witness): the cell is then removed. */
  signal?: AbortSignal;
  /** The directory the root is made in (default os.tmpdir(); `cell-root.ts` decides). */
  rootBase?: string;
}

/** The variables every process in a cell gets: its HOME, XDG, TMPDIR, CODEX_HOME, git isolation. */
export function cellEnv(paths: {
  home: string;
  tmp: string;
  codexHome: string;
  gitConfig: string;
}): Record<string, string> {
  const { home } = paths;
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    TMPDIR: paths.tmp,
    CODEX_HOME: paths.codexHome,
    GIT_CONFIG_GLOBAL: paths.gitConfig,
    GIT_CONFIG_NOSYSTEM: "1",
  };
}

/** Builds a fresh cell under os.tmpdir() (or `rootBase`): directories, planted files, git workspace, trust. */
export async function createCell(options: CellOptions): Promise<Cell> {
  // Checked again here, not only where a protocol is read: a library caller may build a Fixture by hand.
  parseWith(fixtureSchema, options.fixture, "fixture");
  // Owned: `witness clean` removes it after a crash, never while this process runs.
  const root = await realpath(await makeOwnedTempDir("witness-cell-", options.rootBase));
  try {
    return await populate(root, options);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function populate(
  root: string,
  { fixture, nonce, trust, prepare, baseEnv, signal }: CellOptions,
): Promise<Cell> {
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  const codexHome = join(home, ".codex");
  const sentinelDir = join(root, "sentinels");
  const gitConfig = join(root, "gitconfig");
  const nested = fixture.workspace === "nested-worktree";
  const cellRel = cellLayout(fixture.workspace, fixture.worktree);
  const [grandparent, parent, ws] = [cellRel.grandparent, cellRel.parent, cellRel.workspace].map(
    (rel) => join(root, rel),
  ) as [string, string, string];
  const primary = nested ? parent : ws;
  // Independent directories: made concurrently (each recursive mkdir makes its own ancestors).
  await Promise.all([
    ...[
      tmp,
      codexHome,
      sentinelDir,
      parent,
      ...["config", "cache", "local/share", "local/state"].map((d) => join(home, `.${d}`)),
    ].map((dir) => mkdir(dir, { recursive: true })),
    writeFile(gitConfig, "[init]\n\tdefaultBranch = main\n[safe]\n\tdirectory = *\n"),
  ]);
  const env = cellEnv({ home, tmp, codexHome, gitConfig });
  const gitEnv = { ...baseEnv, ...env };

  const roots: Record<FileRoot, string> = {
    workspace: ws,
    home,
    parent,
    grandparent,
    cell: root,
    primary,
  };
  const pathRoots: Record<PathRoot, string> = { ...roots, tmp, "witness-cli": WITNESS_CLI };
  const markers = plantedMarkerNames(fixture).map((name) => ({
    name,
    value: markerValue(name, nonce),
    planted: [] as string[],
  }));
  // In the nested layout a primary file is planted before the worktree exists unless it says after.
  const plant = async (at: FileRoot, afterWorktree = false) => {
    const files = fixture.files.filter(
      (f) => f.at === at && (f.afterWorktree === true) === afterWorktree,
    );
    for (const file of files) {
      signal?.throwIfAborted();
      const target = join(roots[at], file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, resolvePaths(plantMarkers(file.content, nonce), pathRoots));
      for (const m of markers) {
        if (file.content.includes(`{{marker:${m.name}}}`)) m.planted.push(relative(root, target));
      }
    }
  };

  let wsRepo = primaryRepo(ws);
  if (nested) {
    // The primary checkout is `parent`; the workspace is its worktree, at `worktree` inside it.
    const primaryGit = primaryRepo(parent);
    await plant("parent");
    await plant("primary");
    await commitAll(primaryGit, gitEnv, { init: true, message: "witness fixture", worktree: ws });
    wsRepo = worktreeRepo(primaryGit, ws);
    await plant("workspace");
    await commitAll(wsRepo, gitEnv, { init: false, message: "witness workspace" });
    await plant("parent", true);
    await plant("primary", true);
  } else {
    await mkdir(ws, { recursive: true });
    await plant("workspace");
    await plant("primary");
    await commitAll(wsRepo, gitEnv, { init: true, message: "witness fixture" });
    await plant("parent");
  }
  const cwd = fixture.cwd === undefined ? ws : join(ws, fixture.cwd);
  await mkdir(cwd, { recursive: true });
  await plant("cell");
  const sentinelsIn = fixture.sentinelsIn ?? {};
  if (Object.values(sentinelsIn).includes("workspace")) {
    await makeWorkspaceSentinelDir(wsRepo, gitEnv);
  }
  await plant("grandparent");
  await plant("home");
  const paths = { root, home, workspace: ws, codexHome };
  await prepare?.(paths);
  if (fixture.trust) await trust(paths);

  return {
    root,
    home,
    tmp,
    codexHome,
    workspace: ws,
    parent,
    grandparent,
    primary,
    cwd,
    pathRoots,
    sentinelDir,
    workspaceSentinelDir: join(ws, WORKSPACE_SENTINEL_DIR),
    sentinelsIn,
    gitConfig,
    markers,
    env,
  };
}

/**
 * Hands the cell to a sandboxed spawn's host uid: everything in it becomes that uid's, so the
 * spawn alone can write there. The root itself and its owner file stay witness's (the spawn can
 * enter the root, not add, rename or remove its entries), readable by all (0755) so the spawn,
 * uid 0 in its own user namespace, can reach what it holds.
 */
export async function handCellTo(cell: Pick<Cell, "root">, uid: number): Promise<void> {
  const entries = await readdir(cell.root, { recursive: true });
  await Promise.all(
    entries.filter((e) => e !== OWNER_FILE).map((e) => lchown(join(cell.root, e), uid, uid)),
  );
  await chmod(cell.root, 0o755);
}

/** The absolute path the sentinel NAME stands for in this cell, wherever the fixture placed it. */
export function cellSentinelPath(cell: Cell, name: string): string {
  const placement = cell.sentinelsIn[name] ?? "cell";
  return sentinelPath(
    placement === "workspace" ? cell.workspaceSentinelDir : cell.sentinelDir,
    name,
  );
}

/** The sentinels a script names, with their absolute paths in this cell. */
export function cellSentinels(
  cell: Cell,
  names: readonly string[],
): { name: string; path: string }[] {
  return names.map((name) => ({ name, path: cellSentinelPath(cell, name) }));
}

// A CLI's children may still be writing into the cell for a moment after the CLI exits (the PID
// namespace kills them as it closes): ENOTEMPTY and EBUSY are retried, with a linear back-off,
// instead of leaving a half-removed cell behind.
const REMOVAL = { recursive: true, force: true, maxRetries: 8, retryDelay: 25 } as const;

/**
 * Removes a cell and everything the CLI wrote into it. The owner file goes last: a process killed
 * midway leaves a cell that `witness clean` still knows as its own, not one it must keep.
 */
export async function removeCell(cell: Cell): Promise<void> {
  const entries = await readdir(cell.root).catch(() => []);
  await Promise.all(
    entries.filter((e) => e !== OWNER_FILE).map((e) => rm(join(cell.root, e), REMOVAL)),
  );
  await rm(cell.root, REMOVAL);
}

function removeCellSync(root: string): void {
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    // already gone
  }
  for (const e of entries) if (e !== OWNER_FILE) rmSync(join(root, e), REMOVAL);
  rmSync(root, REMOVAL);
}

// Cells being removed off the caller's path; an exiting process finishes the job synchronously.
const removing = new Map<string, Promise<void>>();
process.on("exit", () => {
  for (const root of removing.keys()) removeCellSync(root);
});

/** Starts removing a cell without making the caller wait (the observation is already taken). */
export function removeCellLater(cell: Cell): void {
  const done = removeCell(cell).finally(() => removing.delete(cell.root));
  removing.set(cell.root, done);
}

/** Resolves once every cell handed to removeCellLater is gone. */
export async function cellsRemoved(): Promise<void> {
  await Promise.all([...removing.values()]);
}

/**
 * Starts writing the cell's filesystem back to disk (Linux `sync -f`) without waiting for it.
 * A CLI started in a freshly written cell otherwise pays for that writeback in its own first
 * fsyncs (Codex's state database); flushed while the CLI boots, it mostly costs nothing.
 */
export function startCellFlush(cell: Cell): void {
  void flushCell(cell);
}

/** Writes the cell's filesystem back to disk (`sync -f`, Linux); never rejects. */
export async function flushCell(cell: Cell): Promise<void> {
  if (process.platform !== "linux") return;
  // runProcess never rejects: a missing `sync` only means the CLI does the flushing itself.
  await runProcess({
    file: "sync",
    args: ["-f", cell.root],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cwd: "/",
    timeoutMs: 60_000,
  });
}

// Git steps of the probe cell: init, commit and the git-excluded workspace sentinel directory.
// Every call names its git directory and work tree: nothing planted in the cell is ever read as
// the repository (fixture paths cannot hold a `.git` segment either, fixture-paths.ts).
import { lstat, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

import { InputError } from "../../core/errors.js";
import { hasErrno } from "../../core/fs-errors.js";
import { gitOut, runGitBatch } from "../../core/git.js";
import { WORKSPACE_SENTINEL_DIR } from "../contracts/fixture.js";

// The cell is ours, made by this process: its ownership needs no check. No automatic maintenance:
// after a commit git would otherwise start `git maintenance run --auto`, one more process per cell
// for a repository that lives a second.
const CELL_GIT_OPTIONS = [
  "-c",
  "safe.directory=*",
  "-c",
  "maintenance.auto=false",
  "-c",
  "gc.auto=0",
];

/** A repository of the cell, by its git directory and work tree. */
export interface CellRepo {
  gitDir: string;
  workTree: string;
}

/** The primary repository whose work tree is `dir`. */
export function primaryRepo(dir: string): CellRepo {
  return { gitDir: join(dir, ".git"), workTree: dir };
}

/** The linked worktree `worktree` of `primary`, where `git worktree add` puts its git directory. */
export function worktreeRepo(primary: CellRepo, worktree: string): CellRepo {
  return { gitDir: join(primary.gitDir, "worktrees", basename(worktree)), workTree: worktree };
}

async function refusePlantedGitDir(repo: CellRepo): Promise<void> {
  try {
    await lstat(repo.gitDir);
  } catch (error) {
    if (hasErrno(error, "ENOENT")) return;
    throw error;
  }
  throw new InputError("fixture", [
    {
      path: "files",
      message: `expected no .git in ${repo.workTree} before the cell makes its own`,
    },
  ]);
}

/** Commits everything in the repo (after `git init` when `init`), then adds `worktree` when given. */
export async function commitAll(
  repo: CellRepo,
  env: Record<string, string>,
  steps: { init: boolean; message: string; worktree?: string },
): Promise<void> {
  if (steps.init) await refusePlantedGitDir(repo);
  // No template on init: hook samples are not needed and copying them is slow.
  await runGitBatch(
    [
      ...(steps.init ? [["init", "-q", "--template=", "-b", "main"]] : []),
      ["add", "-A"],
      ["commit", "-q", "--allow-empty", "-m", steps.message],
      ...(steps.worktree ? [["worktree", "add", "-q", "-b", "witness-ws", steps.worktree]] : []),
    ],
    { cwd: repo.workTree, env, options: CELL_GIT_OPTIONS, repo, timeoutMs: 30_000 },
  );
}

// A worktree's info/exclude lives in the common git dir: ask git where, rather than assume `.git/`.
export async function makeWorkspaceSentinelDir(
  repo: CellRepo,
  env: Record<string, string>,
): Promise<void> {
  const ws = repo.workTree;
  await mkdir(join(ws, WORKSPACE_SENTINEL_DIR));
  const where = await gitOut(["rev-parse", "--git-path", "info/exclude"], {
    cwd: ws,
    env,
    options: CELL_GIT_OPTIONS,
    repo,
  });
  const exclude = resolve(ws, where);
  await mkdir(dirname(exclude), { recursive: true });
  let text = "";
  try {
    text = await readFile(exclude, "utf8");
  } catch {
    // no exclude file yet (the repository was made without a template)
  }
  const line = `/${WORKSPACE_SENTINEL_DIR}/\n`;
  await writeFile(exclude, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${line}`);
}

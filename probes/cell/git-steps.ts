// Git steps of the probe cell: init, commit and the git-excluded workspace sentinel directory.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

import { gitOut, runGitBatch } from "../../core/git.js";
import { WORKSPACE_SENTINEL_DIR } from "../contracts/fixture.js";

// The cell is ours, made by this process: its ownership needs no check.
const CELL_GIT_OPTIONS = ["-c", "safe.directory=*"];

/** Commits everything in `dir` (after `git init` when `init`), then adds `worktree` when given. */
export async function commitAll(
  dir: string,
  env: Record<string, string>,
  steps: { init: boolean; message: string; worktree?: string },
): Promise<void> {
  // No template on init: hook samples are not needed and copying them is slow.
  await runGitBatch(
    [
      ...(steps.init ? [["init", "-q", "--template=", "-b", "main"]] : []),
      ["add", "-A"],
      ["commit", "-q", "--allow-empty", "-m", steps.message],
      ...(steps.worktree ? [["worktree", "add", "-q", "-b", "witness-ws", steps.worktree]] : []),
    ],
    { cwd: dir, env, options: CELL_GIT_OPTIONS, timeoutMs: 30_000 },
  );
}

// A worktree's info/exclude lives in the common git dir: ask git where, rather than assume `.git/`.
export async function makeWorkspaceSentinelDir(
  ws: string,
  env: Record<string, string>,
): Promise<void> {
  await mkdir(join(ws, WORKSPACE_SENTINEL_DIR));
  const where = await gitOut(["rev-parse", "--git-path", "info/exclude"], {
    cwd: ws,
    env,
    options: CELL_GIT_OPTIONS,
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

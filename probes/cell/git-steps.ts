// Git steps of the probe cell: init, commit and the git-excluded workspace sentinel directory.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { InternalError } from "../../core/errors.js";
import { runProcess, type ExecResult } from "../../core/exec.js";
import { WORKSPACE_SENTINEL_DIR } from "../contracts/fixture.js";

// Every git call gets a fixed identity, so commits never depend on the operator's config.
const IDENTITY = [
  "-c",
  "user.name=witness",
  "-c",
  "user.email=witness@invalid",
  "-c",
  "commit.gpgsign=false",
];

function gitFailed(what: string, cwd: string, result: ExecResult): InternalError {
  return new InternalError(
    `${what} failed in ${cwd}: ${result.spawnError ?? result.stderr.trim()}`,
  );
}

export async function git(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<string> {
  const result = await runProcess({
    file: "git",
    args: [...IDENTITY, ...args],
    env,
    cwd,
    timeoutMs: 30_000,
  });
  if (result.exitCode !== 0) throw gitFailed(`git ${args.join(" ")}`, cwd, result);
  return result.stdout.trim();
}

// The repository steps run in one shell: each spawn from this process forks all of it, a shell
// forking git does not. No template on init: hook samples are not needed and copying them is slow.
// Usage: sh -c GIT_STEPS witness-git <init|-> <message> <worktree or ""> <git -c options…>
const GIT_STEPS = `set -eu
step=$1 message=$2 worktree=$3
shift 3
if [ "$step" = init ]; then git "$@" init -q --template= -b main; fi
git "$@" add -A
git "$@" commit -q --allow-empty -m "$message"
if [ -n "$worktree" ]; then git "$@" worktree add -q -b witness-ws "$worktree"; fi
`;

/** Commits everything in `dir` (after `git init` when `init`), then adds `worktree` when given. */
export async function commitAll(
  dir: string,
  env: Record<string, string>,
  steps: { init: boolean; message: string; worktree?: string },
): Promise<void> {
  const result = await runProcess({
    file: "/bin/sh",
    args: [
      "-c",
      GIT_STEPS,
      "witness-git",
      steps.init ? "init" : "-",
      steps.message,
      steps.worktree ?? "",
      ...IDENTITY,
    ],
    env,
    cwd: dir,
    timeoutMs: 30_000,
  });
  if (result.exitCode !== 0) throw gitFailed("git init/add/commit", dir, result);
}

// A worktree's info/exclude lives in the common git dir: ask git where, rather than assume `.git/`.
export async function makeWorkspaceSentinelDir(
  ws: string,
  env: Record<string, string>,
): Promise<void> {
  await mkdir(join(ws, WORKSPACE_SENTINEL_DIR));
  const exclude = resolve(ws, await git(["rev-parse", "--git-path", "info/exclude"], ws, env));
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

import { buildChildEnv } from "./child-env.js";
import { InternalError, UsageError } from "./errors.js";
import { runProcess, type ExecResult } from "./exec.js";

async function git(args: readonly string[], cwd: string): Promise<ExecResult> {
  // git needs HOME only for its own config; nothing secret passes.
  const env = buildChildEnv({
    parent: process.env,
    allow: ["HOME"],
    set: { GIT_TERMINAL_PROMPT: "0" },
  });
  const result = await runProcess({ file: "git", args, env, cwd });
  if (result.spawnError !== null) throw new InternalError(`cannot run git: ${result.spawnError}`);
  return result;
}

async function gitOut(args: readonly string[], cwd: string): Promise<string> {
  const result = await git(args, cwd);
  if (result.exitCode !== 0) {
    throw new InternalError(`git ${args.join(" ")} failed: ${result.stderr.trim()}`);
  }
  return result.stdout.trim();
}

/** The top level of the git repository containing `cwd`. */
export async function repoRoot(cwd: string): Promise<string> {
  const result = await git(["rev-parse", "--show-toplevel"], cwd);
  if (result.exitCode !== 0) throw new UsageError(`${cwd} is not inside a git repository`);
  return result.stdout.trim();
}

/** True when `path` is tracked and identical to its committed content (staged or not). */
export async function isCommittedAndClean(path: string, cwd: string): Promise<boolean> {
  const tracked = await git(["ls-files", "--error-unmatch", "--", path], cwd);
  if (tracked.exitCode !== 0) return false;
  const status = await gitOut(["status", "--porcelain", "--", path], cwd);
  return status === "";
}

/** The last commit that changed `path`, or null when none did. */
export async function lastCommitOf(path: string, cwd: string): Promise<string | null> {
  const out = await gitOut(["log", "-1", "--format=%H", "--", path], cwd);
  return out === "" ? null : out;
}

/** The commit that first added `path`, or null when it was never committed. */
export async function commitThatAdded(path: string, cwd: string): Promise<string | null> {
  const out = await gitOut(["log", "--diff-filter=A", "--format=%H", "--", path], cwd);
  const lines = out.split("\n").filter((l) => l !== "");
  return lines.at(-1) ?? null;
}

/** True when `ancestor` is an ancestor of (or equal to) `descendant`. */
export async function isAncestor(
  ancestor: string,
  descendant: string,
  cwd: string,
): Promise<boolean> {
  const result = await git(["merge-base", "--is-ancestor", ancestor, descendant], cwd);
  if (result.exitCode === 0) return true;
  if (result.exitCode === 1) return false;
  // An unknown commit (a shallow clone, a rewritten history) is not an ancestor either.
  return false;
}

/** The text of `path` as committed in `commit`, or null when that commit does not hold it. */
export async function showAt(commit: string, path: string, cwd: string): Promise<string | null> {
  const result = await git(["show", `${commit}:${path}`], cwd);
  return result.exitCode === 0 ? result.stdout : null;
}

/** True when this clone holds `commit` (a shallow clone may not). */
export async function hasCommit(commit: string, cwd: string): Promise<boolean> {
  const result = await git(["cat-file", "-e", `${commit}^{commit}`], cwd);
  return result.exitCode === 0;
}

/** The sentence that explains a commit missing from this clone. */
export function missingCommit(commit: string): string {
  return `commit ${commit.slice(0, 12)} is not in this clone (a shallow clone? fetch the full history: git fetch --unshallow)`;
}

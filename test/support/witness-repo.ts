// Test helpers: temporary git repositories and the built CLI run in them, through the one exec seam.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import type { ExecResult } from "../../core/exec.js";
import { gitOut } from "../../core/git.js";
import { lockProtocol } from "../../prereg/lock.js";
import { runBuiltCli } from "./built-cli.js";
import { type CliRun, runCliInProcess } from "./in-process-cli.js";

export { WITNESS_ROOT } from "./built-cli.js";

// HOME is the temp directory: nothing of the operator's own configuration is read.
function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: "1",
    LANG: "C.UTF-8",
  };
}

/** Runs git in `cwd` (hardened as witness runs it, but tests may clone locally); throws on failure. */
export function git(cwd: string, ...args: string[]): Promise<string> {
  return gitOut(args, { cwd, env: env(), options: ["-c", "protocol.file.allow=always"] });
}

/** Runs the built `witness` CLI in `cwd`. */
export function witness(cwd: string, ...args: string[]): Promise<ExecResult> {
  return witnessWith({ cwd, args });
}

/** Runs the built `witness` CLI with extra environment and an abort signal (sent as SIGTERM). */
export function witnessWith(options: {
  cwd: string;
  args: readonly string[];
  env?: Record<string, string>;
  signal?: AbortSignal;
}): Promise<ExecResult> {
  return runBuiltCli(options.args, {
    env: { ...env(), NO_COLOR: "1", ...(options.env ?? {}) },
    cwd: options.cwd,
    timeoutMs: 300_000,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

/** Runs `witness` in `cwd` in this process (in-process-cli.ts), with the environment `witness` gives the binary. */
export function witnessInProcess(cwd: string, ...args: string[]): Promise<CliRun> {
  return witnessInProcessWith({ cwd, args });
}

/** Runs `witness` in this process with extra environment, as `witnessWith` runs the binary. */
export function witnessInProcessWith(options: {
  cwd: string;
  args: readonly string[];
  env?: Record<string, string>;
}): Promise<CliRun> {
  return runCliInProcess({
    cwd: options.cwd,
    args: options.args,
    env: { ...env(), NO_COLOR: "1", ...(options.env ?? {}) },
  });
}

/** A fresh git repository with one empty commit; `cleanup` removes it. */
export async function tempGitRepo(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "witness-e-"));
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "commit", "-q", "--allow-empty", "-m", "start");
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes `text` at `rel` inside `dir`, creating directories. */
export async function put(dir: string, rel: string, text: string): Promise<string> {
  const file = join(dir, rel);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** Commits the given paths (all changes when none are named). */
export async function commit(dir: string, message: string, ...paths: string[]): Promise<string> {
  await git(dir, "add", ...(paths.length > 0 ? paths : ["-A"]));
  await git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** Writes `docs/adr/<id>-demo.md` (Proposed, requiring nothing): the ADR a test protocol gates must exist to be locked. */
export function putAdr(dir: string, id = "0001"): Promise<string> {
  return put(dir, `docs/adr/${id}-demo.md`, `# ${id} Demo\n\nStatus: Proposed\nRequires: none\n`);
}

/**
 * A fresh repository with ADR 0001 and the protocol `text` at `rel`, committed as "register
 * <id>" and, unless `lock` is false, locked (the lock file left uncommitted, as `prereg lock` does).
 */
export async function registeredRepo(
  rel: string,
  text: string,
  { lock = true }: { lock?: boolean } = {},
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, rel, text);
  await commit(repo.dir, `register ${/^id: "(\d+)"/m.exec(text)?.[1] ?? "?"}`);
  if (lock) await lockProtocol(rel, { cwd: repo.dir });
  return repo;
}

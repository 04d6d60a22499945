// Every git call witness makes: hardened, so no configuration, hook or filter outside the
// repository's own objects can run code or change what witness reads.
import { buildChildEnv } from "./child-env.js";
import { InternalError, UsageError } from "./errors.js";
import { type ExecResult, runProcess } from "./exec.js";

/**
 * `-c` options on every call: no hooks, no fsmonitor, no transport at all, no attributes or
 * ignore file from the operator's HOME or XDG directory, a fixed identity.
 * `safe.directory` is not relaxed: git's ownership check protects a repository named by a user.
 */
export const HARDENED_GIT_OPTIONS: readonly string[] = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.attributesFile=/dev/null",
  "-c",
  "core.excludesFile=/dev/null",
  "-c",
  "protocol.allow=never",
  "-c",
  "user.name=witness",
  "-c",
  "user.email=witness@invalid",
  "-c",
  "commit.gpgsign=false",
];

/** The variables that keep git off the system and user configuration and off the terminal. */
export const HARDENED_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
};

/** Where and how one git call runs. */
export interface GitCall {
  cwd: string;
  /** The child environment to start from (default: the allow-list over process.env). */
  env?: Readonly<Record<string, string>>;
  /** More `-c` options (before the subcommand), e.g. `safe.directory=*` for a cell of our own. */
  options?: readonly string[];
  /**
   * The repository's git directory and work tree, named rather than discovered: a `.git` file or
   * directory planted in the work tree is then never read as the repository.
   */
  repo?: { gitDir: string; workTree: string };
  timeoutMs?: number;
  /** Bytes for git's stdin (`cat-file --batch`). */
  input?: string;
  /** Stdout as bytes (`stdoutBytes`), for output that counts its lengths in bytes. */
  binaryStdout?: boolean;
}

function globalOptions(call: GitCall): string[] {
  const repo =
    call.repo === undefined
      ? []
      : [`--git-dir=${call.repo.gitDir}`, `--work-tree=${call.repo.workTree}`];
  return [...HARDENED_GIT_OPTIONS, ...repo, ...(call.options ?? [])];
}

function gitEnv(call: GitCall): Record<string, string> {
  return { ...(call.env ?? buildChildEnv({ parent: process.env })), ...HARDENED_GIT_ENV };
}

/** Runs `git <args>` hardened; a non-zero exit is a result, a missing git an InternalError. */
export async function runGit(args: readonly string[], call: GitCall): Promise<ExecResult> {
  const result = await runProcess({
    file: "git",
    args: [...globalOptions(call), ...args],
    env: gitEnv(call),
    cwd: call.cwd,
    timeoutMs: call.timeoutMs ?? 60_000,
    ...(call.input === undefined ? {} : { input: call.input }),
    ...(call.binaryStdout === true ? { binaryStdout: true } : {}),
  });
  if (result.spawnError !== null) throw new InternalError(`cannot run git: ${result.spawnError}`);
  return result;
}

/** Runs `git <args>` hardened and returns its trimmed stdout; a failure is an InternalError. */
export async function gitOut(args: readonly string[], call: GitCall): Promise<string> {
  const result = await runGit(args, call);
  if (result.exitCode !== 0) {
    throw new InternalError(`git ${args.join(" ")} failed in ${call.cwd}: ${result.stderr.trim()}`);
  }
  return result.stdout.trim();
}

// Several git commands in one shell spawn (forking a large Node process costs more than git).
// Arguments stay data: the script only ever evaluates positional references such as "${3}".
// Usage: sh -c BATCH witness-git <separator> <args of step 1…> <separator> <args of step 2…> <separator>
const BATCH = `set -eu
sep=$1 i=2 cmd=""
while [ "$i" -le $# ]; do
  eval "arg=\\\${$i}"
  if [ "$arg" = "$sep" ]; then eval "git $cmd"; cmd=""; else cmd="$cmd \\"\\\${$i}\\""; fi
  i=$((i + 1))
done
`;

/** Runs several hardened git commands in order, in one spawn; the first that fails stops them. */
export async function runGitBatch(
  steps: readonly (readonly string[])[],
  call: GitCall,
): Promise<void> {
  const sep = `--witness-step-${process.pid}--`;
  const prefix = globalOptions(call);
  const result = await runProcess({
    file: "/bin/sh",
    args: ["-c", BATCH, "witness-git", sep, ...steps.flatMap((step) => [...prefix, ...step, sep])],
    env: gitEnv(call),
    cwd: call.cwd,
    timeoutMs: call.timeoutMs ?? 60_000,
  });
  if (result.exitCode !== 0) {
    const what = steps.map((s) => s[0]).join("/");
    throw new InternalError(
      `git ${what} failed in ${call.cwd}: ${result.spawnError ?? result.stderr.trim()}`,
    );
  }
}

/** The top level of the git repository containing `cwd`. */
export async function repoRoot(cwd: string): Promise<string> {
  const result = await runGit(["rev-parse", "--show-toplevel"], { cwd });
  if (result.exitCode !== 0) throw new UsageError(`${cwd} is not inside a git repository`);
  return result.stdout.trim();
}

/** True when `path` is tracked and identical to its committed content (staged or not). */
export async function isCommittedAndClean(path: string, cwd: string): Promise<boolean> {
  const tracked = await runGit(["ls-files", "--error-unmatch", "--", path], { cwd });
  if (tracked.exitCode !== 0) return false;
  return (await gitOut(["status", "--porcelain", "--", path], { cwd })) === "";
}

/** The last commit that changed `path`, or null when none did. */
export async function lastCommitOf(path: string, cwd: string): Promise<string | null> {
  const out = await gitOut(["log", "-1", "--format=%H", "--", path], { cwd });
  return out === "" ? null : out;
}

/** The text of `path` as committed in `commit`, or null when that commit does not hold it. */
export async function showAt(commit: string, path: string, cwd: string): Promise<string | null> {
  const result = await runGit(["show", `${commit}:${path}`], { cwd });
  return result.exitCode === 0 ? result.stdout : null;
}

/** True when this clone holds `commit` (a shallow clone may not). */
export async function hasCommit(commit: string, cwd: string): Promise<boolean> {
  const result = await runGit(["cat-file", "-e", `${commit}^{commit}`], { cwd });
  return result.exitCode === 0;
}

/** The sentence that explains a commit missing from this clone. */
export function missingCommit(commit: string): string {
  return `commit ${commit.slice(0, 12)} is not in this clone (a shallow clone? fetch the full history: git fetch --unshallow)`;
}

/** Repository-relative paths of the files under `dir` in `commit` (default HEAD); [] without one. */
export async function committedFiles(dir: string, cwd: string, commit = "HEAD"): Promise<string[]> {
  const result = await runGit(["ls-tree", "-r", "--name-only", commit, "--", dir], { cwd });
  if (result.exitCode !== 0) return [];
  return result.stdout.split("\n").filter((l) => l !== "");
}

/** One commit that changed a path: its hash and committer time (ISO 8601). */
export interface PathCommit {
  commit: string;
  committedAt: string;
}

/** Every commit that changed `path`, newest first (across deletions and re-additions). */
export async function commitsOf(path: string, cwd: string): Promise<PathCommit[]> {
  const out = await gitOut(["log", "--format=%H %cI", "--", path], { cwd });
  return out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [commit = "", committedAt = ""] = l.split(" ");
      return { commit, committedAt };
    });
}

/** One entry of a committed tree: `100644`/`100755` for a file, `120000` for a symlink. */
export interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  /** The blob's size in bytes (null for a tree or a submodule). */
  size: number | null;
  /** Repository-relative path. */
  path: string;
}

/** The entries directly under `dir` in `commit`, with blob sizes (empty when the commit has no such directory). */
export async function treeEntries(commit: string, dir: string, cwd: string): Promise<TreeEntry[]> {
  const result = await runGit(
    ["ls-tree", "-l", "-z", commit, "--", `${dir.replace(/\/+$/, "")}/`],
    { cwd },
  );
  if (result.exitCode !== 0) return [];
  return result.stdout
    .split("\0")
    .filter((l) => l !== "")
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode = "", type = "", object = "", size = "-"] = line.slice(0, tab).split(/\s+/);
      const bytes = Number(size);
      return {
        mode,
        type,
        object,
        size: Number.isFinite(bytes) ? bytes : null,
        path: line.slice(tab + 1),
      };
    });
}

/** The text of each blob, by object id, from one `git cat-file --batch` (absent when missing). */
export async function readBlobs(
  objects: readonly string[],
  cwd: string,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  if (objects.length === 0) return texts;
  const result = await runGit(["cat-file", "--batch"], {
    cwd,
    input: `${objects.join("\n")}\n`,
    binaryStdout: true,
  });
  if (result.exitCode !== 0)
    throw new InternalError(`git cat-file --batch failed in ${cwd}: ${result.stderr.trim()}`);
  const out = result.stdoutBytes ?? new Uint8Array();
  const decoder = new TextDecoder();
  // Each answer: "<oid> <type> <size>\n<size bytes>\n", or "<name> missing\n".
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [oid = "", type = "", size = ""] = decoder.decode(out.subarray(at, eol)).split(" ");
    at = eol + 1;
    if (type === "missing" || size === "") continue;
    const end = at + Number(size);
    texts.set(oid, decoder.decode(out.subarray(at, end)).trim());
    at = end + 1;
  }
  return texts;
}

/** Where a path entered HEAD's history: the commit that added it and the blob it added. */
export interface Addition {
  commit: string;
  blob: string;
}

/**
 * For every path under `dir`, the oldest commit of HEAD's history that added it (a rename counts
 * as an addition) and the blob it added, for all of them in one `git log`.
 */
export async function additionsUnder(dir: string, cwd: string): Promise<Map<string, Addition>> {
  const out = await gitOut(
    [
      "log",
      "--no-renames",
      "--diff-filter=A",
      "--format=%x01%H",
      "--raw",
      "--no-abbrev",
      "-z",
    ].concat(["--", dir]),
    { cwd },
  );
  const added = new Map<string, Addition>();
  // Newest first: a path added again after a deletion keeps its oldest addition, as the last seen.
  for (const chunk of out.split("\x01")) {
    const [commit = "", ...fields] = chunk.replace("\0\n", "\0").split("\0");
    // Each change is ":<old mode> <new mode> <old blob> <new blob> A", then its path.
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const blob = (fields[i] ?? "").split(" ")[3] ?? "";
      const path = fields[i + 1] ?? "";
      if (path !== "" && commit !== "" && blob !== "") added.set(path, { commit, blob });
    }
  }
  return added;
}

/** The oldest commit of HEAD's history that changed how often `text` occurs in `path` (git's pickaxe), or null. */
export async function oldestCommitWithText(
  path: string,
  text: string,
  cwd: string,
): Promise<string | null> {
  const out = await gitOut(["log", "--format=%H", "--no-renames", `-S${text}`, "--", path], {
    cwd,
  });
  return (
    out
      .split("\n")
      .filter((l) => l !== "")
      .at(-1) ?? null
  );
}

/** The commits of HEAD's history that descend from `commit` (itself excluded); empty when unknown. */
export async function descendantsOf(commit: string, cwd: string): Promise<Set<string>> {
  const result = await runGit(["rev-list", "--ancestry-path", `${commit}..HEAD`], { cwd });
  if (result.exitCode !== 0) return new Set();
  return new Set(result.stdout.split("\n").filter((l) => l !== ""));
}

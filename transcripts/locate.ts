// Where the vendor CLIs keep a session's records, and how to find one by id or by age.
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { resolveDir } from "../clis/facts.js";
import { factsOf } from "../clis/facts-by-cli.js";
import type { TranscriptCliName } from "../clis/names.js";
import { firstRecord } from "./peek.js";

/** Claude Code keeps slugs at most this long before appending a hash (read from 2.1.332). */
const SLUG_LIMIT = 200;

/** A session or thread id that is safe to put into a file name (no separators, no dots). */
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

/** Environment variables the locators read; pass process.env or a test's own. */
export type LocateEnv = Readonly<Record<string, string | undefined>>;

/**
 * Claude Code's project directory name for a working directory: every non-alphanumeric character
 * becomes `-`; over 200 characters it keeps the first 200 and appends `-` and a base-36 hash of the
 * original path. Pass the realpath of the cwd, as the CLI does.
 */
export function claudeProjectSlug(cwd: string): string {
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (slug.length <= SLUG_LIMIT) return slug;
  return `${slug.slice(0, SLUG_LIMIT)}-${Math.abs(stringHash(cwd)).toString(36)}`;
}

/** The 32-bit string hash the CLI uses for long slugs (h = h * 31 + code unit, wrapped). */
function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/** Claude Code's config directory: `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`; null without either. */
export function claudeConfigDir(env: LocateEnv): string | null {
  return configDirOf("claude-code", env);
}

/** Codex's home: `$CODEX_HOME`, else `$HOME/.codex`; null without either. */
export function codexHomeDir(env: LocateEnv): string | null {
  return configDirOf("codex", env);
}

/** A CLI's configuration directory as its facts say it resolves it. */
export function configDirOf(name: TranscriptCliName, env: LocateEnv): string | null {
  const rule = factsOf(name).configDir;
  return rule === null ? null : resolveDir(rule, env);
}

/**
 * A Windows path (`C:\Users\me\.codex`) as WSL mounts it (`/mnt/c/Users/me/.codex`): how a Linux
 * process reads the home of a Windows Codex session driving a WSL checkout. Null for other paths.
 */
export function windowsPathInWsl(path: string, mountRoot = "/mnt"): string | null {
  const match = /^([A-Za-z]):[\\/](.*)$/.exec(path);
  if (!match) return null;
  const rest = (match[2] ?? "").split(/[\\/]+/).filter((part) => part !== "");
  return join(mountRoot, (match[1] ?? "").toLowerCase(), ...rest);
}

/** The transcript path Claude Code uses for a session started in `cwd` (a realpath). */
export function claudeSessionPath(configDir: string, cwd: string, sessionId: string): string {
  return join(configDir, "projects", claudeProjectSlug(cwd), `${sessionId}.jsonl`);
}

/** Finds `<configDir>/projects/<any slug>/<sessionId>.jsonl`; null when absent or the id is unsafe. */
export async function findClaudeSession(
  configDir: string,
  sessionId: string,
): Promise<string | null> {
  if (!SAFE_ID.test(sessionId)) return null;
  for (const slug of await listDir(join(configDir, "projects"))) {
    const path = join(configDir, "projects", slug, `${sessionId}.jsonl`);
    if (await isFile(path)) return path;
  }
  return null;
}

/** True for a sub-agent's own file name (`agent-<hex>.jsonl`, written by 2.0.30 – 2.1.4). */
export function isClaudeSidechainName(name: string): boolean {
  return /^agent-[^/]*\.jsonl$/.test(name);
}

/**
 * The most recently modified main session under `<configDir>/projects`: sidechain files
 * (`agent-*.jsonl`, or a first record with `isSidechain: true`) never count. Null when none.
 */
export async function newestClaudeSession(configDir: string): Promise<string | null> {
  const candidates: string[] = [];
  for (const slug of await listDir(join(configDir, "projects"))) {
    for (const name of await listDir(join(configDir, "projects", slug))) {
      if (name.endsWith(".jsonl") && !isClaudeSidechainName(name))
        candidates.push(join(configDir, "projects", slug, name));
    }
  }
  for (const path of await byAge(candidates)) {
    if (!(await isSidechainFile(path))) return path;
  }
  return null;
}

/**
 * The main session of a Claude Code run: by the session id the CLI reported when there is one
 * (its `--output-format json` result's `session_id`), else the newest main session.
 */
export async function locateClaudeSession(
  configDir: string,
  sessionId: string | null,
): Promise<string | null> {
  if (sessionId !== null) return findClaudeSession(configDir, sessionId);
  return newestClaudeSession(configDir);
}

/**
 * The sidechain files of a main session: `agent-*.jsonl` beside it whose records carry its
 * session id (2.0.30 – 2.1.0), and `<session id>/subagents/*.jsonl` below it (2.1.4).
 */
export async function claudeSidechains(mainPath: string, sessionId: string): Promise<string[]> {
  const dir = dirname(mainPath);
  const found: string[] = [];
  for (const name of (await listDir(dir)).sort()) {
    if (!isClaudeSidechainName(name)) continue;
    const first = await firstRecord(join(dir, name));
    const id = (first?.value as { sessionId?: unknown } | undefined)?.sessionId;
    if (id === sessionId) found.push(join(dir, name));
  }
  const nested = join(dir, basename(mainPath, ".jsonl"), "subagents");
  for (const name of (await listDir(nested)).sort())
    if (name.endsWith(".jsonl")) found.push(join(nested, name));
  return found;
}

async function isSidechainFile(path: string): Promise<boolean> {
  const first = await firstRecord(path);
  return (first?.value as { isSidechain?: unknown } | undefined)?.isSidechain === true;
}

/** Finds `<codexHome>/sessions/YYYY/MM/DD/rollout-*-<threadId>.jsonl`; null when absent or unsafe. */
export async function findCodexRollout(
  codexHome: string,
  threadId: string,
): Promise<string | null> {
  if (!SAFE_ID.test(threadId)) return null;
  const matches = (await codexRollouts(codexHome)).filter((path) =>
    path.endsWith(`-${threadId}.jsonl`),
  );
  return newest(matches);
}

/** The most recently modified rollout under `<codexHome>/sessions`, or null when there is none. */
export async function newestCodexRollout(codexHome: string): Promise<string | null> {
  return newest(await codexRollouts(codexHome));
}

async function codexRollouts(codexHome: string): Promise<string[]> {
  const found: string[] = [];
  const sessions = join(codexHome, "sessions");
  for (const year of await listDir(sessions)) {
    for (const month of await listDir(join(sessions, year))) {
      for (const day of await listDir(join(sessions, year, month))) {
        for (const name of await listDir(join(sessions, year, month, day))) {
          if (name.startsWith("rollout-") && name.endsWith(".jsonl")) {
            found.push(join(sessions, year, month, day, name));
          }
        }
      }
    }
  }
  return found;
}

async function newest(paths: readonly string[]): Promise<string | null> {
  return (await byAge(paths))[0] ?? null;
}

/** The paths that are files, newest first. */
async function byAge(paths: readonly string[]): Promise<string[]> {
  const dated: { path: string; mtimeMs: number }[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info?.isFile()) dated.push({ path, mtimeMs: info.mtimeMs });
  }
  return dated.sort((a, b) => b.mtimeMs - a.mtimeMs).map((d) => d.path);
}

/** Entries of a directory; an absent or unreadable directory has none. */
async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function isFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ?? false;
}

// Session-marker evidence: each vendor session the environment names must record full access.
import { errorMessage } from "../../core/error-text.js";
import { errnoCode } from "../../core/fs-errors.js";
import type { LatestClaudeMode, LatestCodexTurn } from "../../transcripts/latest-policy.js";
import {
  claudeConfigDir,
  codexHomeDir,
  findClaudeSession,
  findCodexRollout,
  type LocateEnv,
  windowsPathInWsl,
} from "../../transcripts/locate.js";
import type { Confinement } from "./confinement.js";
import type { ParentEvidence } from "./parent-access.js";

/**
 * How the session checks read records: only the latest policy record, found from the end of the
 * file. Tests pass fixtures through the same readers.
 */
export interface SessionLookup {
  latestClaudePermissionMode(path: string): Promise<LatestClaudeMode | null>;
  latestCodexTurnContext(path: string): Promise<LatestCodexTurn | null>;
  /** On Linux, where a Windows CODEX_HOME is mounted (WSL: `/mnt`); null when not translating. */
  wslMountRoot: string | null;
}

/** Codex thread ids named by the environment (CODEX_THREAD_ID, CODEX_SESSION_ID), deduplicated. */
export function codexMarkers(env: LocateEnv): string[] {
  const ids = [env.CODEX_THREAD_ID, env.CODEX_SESSION_ID].filter(
    (id): id is string => id !== undefined && id !== "",
  );
  return [...new Set(ids)];
}

/** True when the environment says it runs under a Claude Code session. */
export function hasClaudeMarker(env: LocateEnv): boolean {
  return env.CLAUDECODE === "1" || (env.CLAUDE_CODE_SESSION_ID ?? "") !== "";
}

/** A Codex parent passes only when its rollout's latest turn context is danger-full-access. */
export async function codexEvidence(
  env: LocateEnv,
  threadId: string,
  lookup: SessionLookup,
): Promise<ParentEvidence> {
  const fail = (detail: string): ParentEvidence => ({
    source: "codex-rollout",
    detail,
    passed: false,
  });
  const named = codexHomeDir(env);
  const home =
    named === null || lookup.wslMountRoot === null
      ? named
      : (windowsPathInWsl(named, lookup.wslMountRoot) ?? named);
  if (home === null) return fail(`Codex thread ${threadId}: neither CODEX_HOME nor HOME is set`);
  const path = await findCodexRollout(home, threadId);
  if (path === null) return fail(`Codex thread ${threadId}: no rollout under ${home}/sessions`);
  let latest: LatestCodexTurn | null;
  try {
    latest = await lookup.latestCodexTurnContext(path);
  } catch (error) {
    return fail(`${path}: cannot read the rollout (${errorCode(error)})`);
  }
  if (latest === null) return fail(`${path}: no turn_context record`);
  const detail = `${path} (byte ${latest.offset}): latest turn_context sandbox_policy is ${latest.sandboxPolicy}`;
  return { source: "codex-rollout", detail, passed: latest.sandboxPolicy === "danger-full-access" };
}

/**
 * A Claude Code parent passes only when its transcript's latest permission mode is
 * bypassPermissions and the Linux confinement check is clear (its Bash sandbox is ruled out
 * by nothing else, so off Linux it stays unknown).
 */
export async function claudeEvidence(
  env: LocateEnv,
  confinement: Confinement,
  lookup: SessionLookup,
): Promise<ParentEvidence> {
  const fail = (detail: string): ParentEvidence => ({
    source: "claude-transcript",
    detail,
    passed: false,
  });
  const sessionId = env.CLAUDE_CODE_SESSION_ID ?? "";
  if (sessionId === "") return fail("CLAUDECODE=1 without CLAUDE_CODE_SESSION_ID: no transcript");
  const dir = claudeConfigDir(env);
  if (dir === null)
    return fail(`Claude Code session ${sessionId}: neither CLAUDE_CONFIG_DIR nor HOME is set`);
  const path = await findClaudeSession(dir, sessionId);
  if (path === null)
    return fail(`Claude Code session ${sessionId}: no transcript under ${dir}/projects`);
  let last: LatestClaudeMode | null;
  try {
    last = await lookup.latestClaudePermissionMode(path);
  } catch (error) {
    return fail(`${path}: cannot read the transcript (${errorCode(error)})`);
  }
  if (last === null) return fail(`${path}: no prompt record with a permissionMode`);
  const where = `${path} (byte ${last.offset}): latest permissionMode is ${last.mode}`;
  if (last.mode !== "bypassPermissions") return fail(where);
  if (confinement !== "clear") {
    return fail(`${where}, but the Bash sandbox is not ruled out (confinement ${confinement})`);
  }
  return { source: "claude-transcript", detail: where, passed: true };
}

function errorCode(error: unknown): string {
  return errnoCode(error, errorMessage(error));
}

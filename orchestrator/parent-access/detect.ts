// The parent-access detector (docs/background.md#fa-parent): full access only from positive evidence.
import { readFile } from "node:fs/promises";

import {
  latestClaudePermissionMode,
  latestCodexTurnContext,
} from "../../transcripts/latest-policy.js";
import { codexSandboxEvidence, noNewPrivsEvidence } from "./confinement.js";
import type { ParentAccess, ParentAccessDetector, ParentEvidence } from "./parent-access.js";
import {
  claudeEvidence,
  codexEvidence,
  codexMarkers,
  hasClaudeMarker,
  type SessionLookup,
} from "./sessions.js";

/** Everything the detector reads, injectable so tests run on fixtures. */
export interface DetectParentAccessOptions {
  /** The environment this process inherited from its parent session; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default process.platform; the no_new_privs check exists only on Linux. */
  platform?: NodeJS.Platform;
  /** Text of /proc/self/status, or null when unreadable; default reads the real file. */
  readProcStatus?: () => Promise<string | null>;
  /** Readers of the latest policy record; default the ones that read from the file's end. */
  readers?: Partial<Omit<SessionLookup, "wslMountRoot">>;
  /** Where WSL mounts Windows drives (default `/mnt`), for a Windows Codex home seen from Linux. */
  wslMountRoot?: string;
}

/**
 * Establishes the launching session's access. Every piece of evidence must pass and at least one
 * session marker must be present; anything not established counts as sandboxed.
 */
export async function detectParentAccess(
  options: DetectParentAccessOptions = {},
): Promise<ParentAccess> {
  const env = options.env ?? process.env;
  const linux = (options.platform ?? process.platform) === "linux";
  const lookup: SessionLookup = {
    latestClaudePermissionMode:
      options.readers?.latestClaudePermissionMode ?? latestClaudePermissionMode,
    latestCodexTurnContext: options.readers?.latestCodexTurnContext ?? latestCodexTurnContext,
    wslMountRoot: linux ? (options.wslMountRoot ?? "/mnt") : null,
  };
  const evidence: ParentEvidence[] = [];
  const statusText = linux ? await (options.readProcStatus ?? readProcSelfStatus)() : null;
  const nnp = noNewPrivsEvidence(linux, statusText);
  if (nnp.evidence) evidence.push(nnp.evidence);
  evidence.push(codexSandboxEvidence(env));

  // A nested session inherits its outer session's markers: each one has to pass on its own.
  const threads = codexMarkers(env);
  for (const thread of threads) evidence.push(await codexEvidence(env, thread, lookup));
  const claude = hasClaudeMarker(env);
  if (claude) evidence.push(await claudeEvidence(env, nnp.confinement, lookup));
  if (threads.length === 0 && !claude) {
    evidence.push({
      source: "session-marker",
      detail:
        "no Codex (CODEX_THREAD_ID) or Claude Code (CLAUDECODE) session marker in the environment",
      passed: false,
    });
  }
  return { fullAccess: evidence.every((item) => item.passed), evidence };
}

/** The detector as the orchestrator's interface; options as for detectParentAccess. */
export function createParentAccessDetector(
  options: DetectParentAccessOptions = {},
): ParentAccessDetector {
  return { detect: () => detectParentAccess(options) };
}

async function readProcSelfStatus(): Promise<string | null> {
  return readFile("/proc/self/status", "utf8").catch(() => null);
}

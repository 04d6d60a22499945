// The Claude Code driver: Anthropic Messages on the wire, ~/.claude.json trust, session JSONL.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyClaudeCall } from "../../clis/claude-code/outcome.js";
import { compareVersions } from "../../core/version-order.js";
import { anthropicMessages } from "../fake/anthropic-messages.js";
import type { SideRoute } from "../fake/side-routes.js";
import { claudeCodeFlags, plantClaudeCodeFlags } from "./claude-code-flags.js";
import { claudeCodeHelper } from "./claude-code-helpers.js";
import { readClaudeTranscript } from "./claude-transcript.js";
import type { CellPaths, ProbeDriver, RejectedArgv } from "./driver.js";
import { DUMMY_KEY } from "./shared.js";

// Versions before this one iterate `allowedTools` of the project entry and crash without it.
const LEGACY_TRUST_UNTIL = "2.0.30";

// The preconnect: one fire-and-forget HEAD to the base URL per spawn, whatever it is answered.
const PRECONNECT: readonly SideRoute[] = [
  { method: "HEAD", path: "/", status: 200, why: "preconnect, seen in 2.1.85 to 2.1.200" },
  {
    method: "HEAD",
    path: "/api/hello",
    status: 200,
    why: "preconnect, seen in 2.1.220 to 2.1.286",
  },
];

/** The flag Claude Code refused (its argument parser's words), or null. */
export function claudeRejectedArgv(stderr: string): RejectedArgv | null {
  for (const raw of stderr.split("\n")) {
    const line = raw.trim();
    const unknown = /^error: unknown option '([^']+)'/.exec(line);
    if (unknown?.[1] !== undefined) return { flag: unknown[1], message: line };
    const invalid = /^error: option '(--[\w-]+)[^']*' argument '([^']*)' is invalid/.exec(line);
    if (invalid?.[1] !== undefined)
      return { flag: `${invalid[1]} ${invalid[2] ?? ""}`, message: line };
    const refused = /^(--[\w-]+) cannot be used with/.exec(line);
    if (refused?.[1] !== undefined) return { flag: refused[1], message: line };
  }
  return null;
}

/** Marks the workspace trusted in the cell's ~/.claude.json (project-scoped grants need it). */
async function trustWorkspace(cell: CellPaths, version?: string): Promise<void> {
  const file = join(cell.home, ".claude.json");
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch {
    // absent or not JSON: start from an empty config
  }
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>;
  const old = version !== undefined && compareVersions(version, LEGACY_TRUST_UNTIL) < 0;
  const legacy = old ? { allowedTools: [] } : {};
  projects[cell.workspace] = {
    ...legacy,
    ...(projects[cell.workspace] ?? {}),
    hasTrustDialogAccepted: true,
  };
  await writeFile(file, JSON.stringify({ ...config, projects }, null, 2));
}

/** Claude Code (0.2.126 to 2.1.332 run), as the probe cell runs it. */
export const claudeCodeDriver: ProbeDriver = {
  name: "claude-code",
  info: CLI_CATALOG["claude-code"],
  wire: anthropicMessages,
  naming: (call) =>
    "shell" in call
      ? { name: "Bash", input: { command: call.shell, description: "witness probe command" } }
      : { name: call.tool, input: call.input },
  launch: ({ argv, baseUrl, stdin }) => ({
    args: [...argv],
    ...(stdin === undefined ? {} : { stdin }),
    env: {
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: DUMMY_KEY,
      // Stops background traffic; 2.1.85 to 2.1.286 still preconnect to the base URL (side routes).
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // witness runs as root in a throwaway cell; bypass modes refuse to start as root without it.
      IS_SANDBOX: "1",
      // A scripted 5xx is answered once, not retried until the timeout (read from 1.0.128 on).
      CLAUDE_CODE_MAX_RETRIES: "0",
    },
  }),
  trustWorkspace,
  sideRoutes: () => PRECONNECT,
  helperCall: claudeCodeHelper,
  rejectedArgv: claudeRejectedArgv,
  readTranscript: readClaudeTranscript,
  classify: classifyClaudeCall,
  sessionFixture: { name: "session.jsonl" },
  featureFlags: claudeCodeFlags,
  flagCache: { plant: plantClaudeCodeFlags, offSwitch: "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC" },
};

// The opencode driver: Chat Completions on the wire, the provider in OPENCODE_CONFIG_CONTENT,
// seeded config directories (no background npm install), sessions read from its SQLite database.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { driftWarnings } from "../../transcripts/drift.js";
import {
  OPENCODE_WORDING,
  opencodeCallOutcome,
  opencodeDbPath,
  readOpencodeDb,
} from "../../transcripts/opencode-session.js";
import { CLI_CATALOG } from "../contracts/clis.js";
import type { ToolOutcome } from "../contracts/observation.js";
import { openaiChat } from "../fake/openai-chat.js";
import type { WireResult } from "../fake/wire.js";
import {
  noTranscript,
  type PrepareInput,
  type ProbeDriver,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY } from "./shared.js";

/** The `provider/model` the cell's opencode is pointed at. */
export const OPENCODE_MODEL = "witness/fake-model";

/** The configuration that routes opencode to the fake server, as OPENCODE_CONFIG_CONTENT holds it. */
export function opencodeConfig(baseUrl: string): Record<string, unknown> {
  return {
    provider: {
      witness: {
        npm: "@ai-sdk/openai-compatible",
        name: "witness fake model",
        options: { baseURL: `${baseUrl}/v1`, apiKey: DUMMY_KEY },
        models: { "fake-model": { name: "fake model" } },
      },
    },
    model: OPENCODE_MODEL,
    autoupdate: false,
    share: "disabled",
  };
}

// What opencode's background `npm install @opencode-ai/plugin` takes as already done.
const LOCK = { packages: { "": { dependencies: { "@opencode-ai/plugin": "*" } } } };

/**
 * The configuration directories opencode 1.18 installs its plugin package into: the global one,
 * the workspace's `.opencode`, `~/.opencode`, and OPENCODE_CONFIG_DIR (read from its binary).
 */
export function opencodeConfigDirs(input: PrepareInput): string[] {
  const { cell, env } = input;
  const global = join(env.XDG_CONFIG_HOME ?? join(cell.home, ".config"), "opencode");
  const optional = [join(cell.workspace, ".opencode"), join(cell.home, ".opencode")].filter((dir) =>
    existsSync(dir),
  );
  return [global, ...optional, ...(env.OPENCODE_CONFIG_DIR ? [env.OPENCODE_CONFIG_DIR] : [])];
}

/** Seeds every config directory so opencode never starts an npm install (a registry lookup). */
async function prepare(input: PrepareInput): Promise<void> {
  for (const dir of opencodeConfigDirs(input)) {
    await mkdir(join(dir, "node_modules"), { recursive: true });
    const lock = join(dir, "package-lock.json");
    if (!existsSync(lock)) await writeFile(lock, JSON.stringify(LOCK));
  }
}

const { rejected: REJECTED, ruleDenied: RULE_DENIED, unavailable: UNAVAILABLE } = OPENCODE_WORDING;

/** How a call ended by opencode's own record: its decision, then its text and exit code. */
export function opencodeOutcome(
  result: WireResult | null,
  decision: string | null,
  recorded: WireResult | null | undefined,
): ToolOutcome {
  if (decision === "reject") return "denied";
  const text = result?.text ?? recorded?.text;
  if (text === undefined) return "unknown";
  if (UNAVAILABLE.test(text)) return "no-such-tool";
  if (RULE_DENIED.test(text)) return "denied";
  if (recorded != null) return recorded.isError ? "error" : "ran";
  return "ran";
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const path = opencodeDbPath(env);
  if (path === null || !existsSync(path)) return noTranscript();
  const db = await readOpencodeDb(path, { markers: hints.markers });
  const decisions = new Map<string, string>();
  const results = new Map<string, WireResult>();
  const outcomes = new Map<string, ToolOutcome>();
  for (const call of db.toolCalls) {
    const text = call.output ?? call.error ?? "";
    if (call.error !== null && REJECTED.test(call.error)) decisions.set(call.callId, "reject");
    // A shell command's exit code is only in the metadata, not in the text sent back.
    const failed = call.status === "error" || (call.exit !== null && call.exit !== 0);
    const result = { isError: failed, text };
    results.set(call.callId, result);
    outcomes.set(call.callId, opencodeCallOutcome(call));
  }
  const model = db.sessions.at(-1)?.model as { id?: unknown; providerID?: unknown } | undefined;
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(db.markersSeen),
    decisions,
    results,
    outcomes,
    model:
      typeof model?.providerID === "string" && typeof model.id === "string"
        ? `${model.providerID}/${model.id}`
        : null,
    finalText: db.finalText,
    warnings: driftWarnings(path, db.drift),
  };
}

/** opencode (opencode-ai), as the probe cell runs it. */
export const opencodeDriver: ProbeDriver = {
  name: "opencode",
  info: CLI_CATALOG.opencode,
  wire: openaiChat,
  naming: (call) =>
    "shell" in call
      ? { name: "bash", input: { command: call.shell, description: "witness probe command" } }
      : { name: call.tool, input: call.input },
  launch: ({ argv, baseUrl, stdin }) => ({
    args: [...argv],
    env: {
      OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(baseUrl)),
      // No models.dev fetch, no self-update, no language-server downloads.
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    },
    ...(stdin === undefined ? {} : { stdin }),
  }),
  prepare,
  // opencode has no notion of a trusted folder.
  trustWorkspace: () => Promise.resolve(),
  readTranscript,
  outcome: opencodeOutcome,
  // After a run the rows are often only in the write-ahead log.
  sessionFixture: { companions: ["-wal"] },
  instructionFiles: [
    {
      at: "workspace",
      path: "AGENTS.md",
      when: "from the cwd up to the git root (to / outside git), the first name found of AGENTS.md, CLAUDE.md, CONTEXT.md",
    },
    { at: "workspace", path: "CLAUDE.md", when: "when no AGENTS.md is found" },
    {
      at: "home",
      path: ".config/opencode/AGENTS.md",
      when: "always ($OPENCODE_CONFIG_DIR if set)",
    },
    { at: "home", path: ".claude/CLAUDE.md", when: "when there is no global AGENTS.md" },
    { at: "workspace", path: ".opencode/skills/*/SKILL.md", when: "descriptions" },
    { at: "home", path: ".claude/skills/*/SKILL.md", when: "descriptions" },
  ],
};

// The Qwen Code driver: Chat Completions on the wire (the OPENAI_* variables), ~/.qwen/settings.json
// in the cell's HOME with managed auto-memory off, chat JSONL under ~/.qwen/projects.
import { join } from "node:path";

import { driftWarnings } from "../../transcripts/drift.js";
import { newestQwenChat, qwenRuntimeDir, readQwenChat } from "../../transcripts/qwen-chat.js";
import { statedExitCode } from "../../transcripts/session-facts.js";
import { CLI_CATALOG } from "../contracts/clis.js";
import { createOpenaiChat, type SideRequest } from "../fake/openai-chat.js";
import {
  type CellPaths,
  noTranscript,
  type ProbeDriver,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, NO_SUCH_TOOL, plantJsonSettings } from "./shared.js";

/** The model name the cell gives Qwen Code when the argv names none. */
export const QWEN_MODEL = "witness-fake-model";

/**
 * OpenAI-compatible auth, background switches off, and managed auto-memory off: with it on,
 * Qwen Code 0.24.4 sends one more request after the final answer (the memory extraction).
 */
export const QWEN_SETTINGS = {
  security: { auth: { selectedType: "openai" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false },
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
  // No SDK or rate-limit retries; 0.24.4's own stream retry (7 attempts) has no setting.
  model: { generationConfig: { maxRetries: 0 } },
} as const;

/**
 * The memory-extraction side request, recognised anyway (a fixture may turn auto-memory back on):
 * it carries tools and the whole conversation, so a turn-counting fake would otherwise answer it
 * with the next scripted turn.
 */
export const QWEN_MEMORY_EXTRACTION: SideRequest = {
  name: "memory-extraction",
  systemPrefix: "You are now acting as the managed memory extraction subagent",
  text: "Nothing to remember.",
};

// Qwen Code's permission layer: a declined approval, or a deny rule.
const DENIED = /permission was declined|denied by permission rules/i;

async function prepareCell(cell: CellPaths): Promise<void> {
  await plantJsonSettings(join(cell.home, ".qwen", "settings.json"), QWEN_SETTINGS);
}

// Qwen Code 0.24.4 leaves folder trust off by default; the file matters once a fixture turns it on.
async function trustWorkspace(cell: CellPaths): Promise<void> {
  const file = join(cell.home, ".qwen", "trustedFolders.json");
  await plantJsonSettings(file, { [cell.workspace]: "TRUST_FOLDER" });
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const runtime = qwenRuntimeDir(env);
  const path = runtime === null ? null : await newestQwenChat(runtime);
  if (path === null) return noTranscript();
  const chat = await readQwenChat(path, { markers: hints.markers });
  // The CLI's own verdict per call: its error type when it failed, else its approval decision.
  const decisions = new Map<string, string>();
  for (const call of chat.toolCalls) {
    const decision = call.errorType ?? call.decision;
    if (decision !== null) decisions.set(call.callId, decision);
  }
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(chat.markersSeen),
    decisions,
    warnings: driftWarnings(path, chat.drift),
  };
}

// The exit codes of Qwen Code's fatal errors, as its 0.24.4 bundle declares them (FatalError
// subclasses, forked from Gemini CLI's: 55 means a spent budget here, not an untrusted folder).
const QWEN_EXITS: Readonly<Record<number, string>> = {
  42: "bad input",
  44: "sandbox error",
  52: "configuration error",
  53: "turn limit reached",
  55: "budget exceeded",
  130: "cancelled",
};

/** What Qwen Code's exit code means, for the codes its fatal errors use; else null. */
export function qwenExitMeaning(exitCode: number): string | null {
  return QWEN_EXITS[exitCode] ?? null;
}

/** Qwen Code (`@qwen-code/qwen-code`), as the probe cell runs it. */
export const qwenDriver: ProbeDriver = {
  name: "qwen",
  info: CLI_CATALOG.qwen,
  wire: createOpenaiChat({ sideRequests: [QWEN_MEMORY_EXTRACTION] }),
  naming: (call) =>
    "shell" in call
      ? { name: "run_shell_command", input: { command: call.shell } }
      : { name: call.tool, input: call.input },
  // The prompt a rendered node puts on stdin stays there: dropped, the CLI would run without it.
  launch: ({ argv, baseUrl, stdin }) => ({
    args: [...argv],
    ...(stdin === undefined ? {} : { stdin }),
    env: {
      OPENAI_API_KEY: DUMMY_KEY,
      OPENAI_BASE_URL: `${baseUrl}/v1`,
      OPENAI_MODEL: QWEN_MODEL,
      // `--bare` skips settings.json, and with it the usage-statistics switch.
      QWEN_USAGE_STATISTICS_ENABLED: "0",
    },
  }),
  prepareCell,
  trustWorkspace,
  readTranscript,
  exitMeaning: qwenExitMeaning,
  outcome(result, decision) {
    if (decision === "execution_denied") return "denied";
    if (decision === "tool_not_registered") return "no-such-tool";
    if (result === null) return decision === null ? "unknown" : "error";
    if (NO_SUCH_TOOL.test(result.text)) return "no-such-tool";
    if (DENIED.test(result.text)) return "denied";
    const exit = statedExitCode(result.text);
    if (exit !== null) return exit === 0 ? "ran" : "error";
    return decision === null || decision === "auto_accept" ? "ran" : "error";
  },
  // System settings and defaults (strings in its bundle); Qwen Code has no override variable in the cell.
  managedFiles: ["/etc/qwen-code/settings.json", "/etc/qwen-code/system-defaults.json"],
  instructionFiles: [
    { at: "workspace", path: "QWEN.md", when: "from the cwd up to the git root's parent" },
    { at: "workspace", path: "AGENTS.md", when: "from the cwd up to the git root's parent" },
    { at: "parent", path: "QWEN.md", when: "the git root's parent is read, nothing above it" },
    { at: "workspace", path: ".qwen/QWEN.local.md", when: "whatever context.fileName says" },
    { at: "workspace", path: ".qwen/rules/*.md", when: "baseline rules (no paths:)" },
    { at: "home", path: ".qwen/QWEN.md", when: "always ($QWEN_HOME)" },
    { at: "home", path: ".qwen/AGENTS.md", when: "always ($QWEN_HOME)" },
    { at: "home", path: ".qwen/rules/*.md", when: "baseline rules (no paths:)" },
  ],
};

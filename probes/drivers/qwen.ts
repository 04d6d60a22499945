// The Qwen Code driver: Chat Completions on the wire (the OPENAI_* variables), ~/.qwen/settings.json
// in the cell's HOME with managed auto-memory off, chat JSONL under ~/.qwen/projects.
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import type { RecordedCall } from "../../clis/outcome.js";
import { classifyQwenCall } from "../../clis/qwen/outcome.js";
import { driftWarnings } from "../../transcripts/drift.js";
import {
  newestQwenChat,
  qwenRecorded,
  qwenRuntimeDir,
  readQwenChat,
} from "../../transcripts/qwen-chat.js";
import { createOpenaiChat, type SideRequest } from "../fake/openai-chat.js";
import {
  type CellPaths,
  noTranscript,
  type ProbeDriver,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, plantJsonSettings } from "./shared.js";

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
  const calls = new Map<string, RecordedCall>();
  for (const call of chat.toolCalls) calls.set(call.callId, qwenRecorded(call));
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(chat.markersSeen),
    calls,
    warnings: driftWarnings(path, chat.drift),
  };
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
  classify: classifyQwenCall,
};

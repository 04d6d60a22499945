// The Gemini CLI driver: the Gemini API on the wire, ~/.gemini/settings.json and
// trustedFolders.json in the cell's HOME, chat JSONL under ~/.gemini/tmp.
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyGeminiCall } from "../../clis/gemini/outcome.js";
import { driftWarnings } from "../../transcripts/drift.js";
import {
  geminiHomeDir,
  geminiRecorded,
  newestGeminiChat,
  readGeminiChat,
} from "../../transcripts/gemini-chat.js";
import { geminiApi } from "../fake/gemini.js";
import {
  type CellPaths,
  noTranscript,
  type ProbeDriver,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, plantJsonSettings } from "./shared.js";

/** API-key auth (the fake ignores the key), and every background switch off. */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  // maxAttempts 1: a scripted 5xx or cut stream ends the spawn instead of ten backed-off retries.
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
} as const;

async function prepareCell(cell: CellPaths): Promise<void> {
  await plantJsonSettings(join(cell.home, ".gemini", "settings.json"), GEMINI_SETTINGS);
}

// Trust by the CLI's own file rather than GEMINI_CLI_TRUST_WORKSPACE, so an untrusted fixture
// stays untrusted (headless Gemini CLI 0.61.0 then refuses to start, exit 55).
async function trustWorkspace(cell: CellPaths): Promise<void> {
  const file = join(cell.home, ".gemini", "trustedFolders.json");
  await plantJsonSettings(file, { [cell.workspace]: "TRUST_FOLDER" });
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const home = geminiHomeDir(env);
  const path = home === null ? null : await newestGeminiChat(home);
  if (path === null) return noTranscript();
  const chat = await readGeminiChat(path, { markers: hints.markers });
  // Gemini CLI records no approval mode and no per-call decision, only each call's status.
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(chat.markersSeen),
    calls: new Map(chat.toolCalls.map((call) => [call.id, geminiRecorded(call)])),
    warnings: driftWarnings(path, chat.drift),
  };
}

/** Gemini CLI (`@google/gemini-cli`), as the probe cell runs it. */
export const geminiDriver: ProbeDriver = {
  name: "gemini",
  info: CLI_CATALOG.gemini,
  wire: geminiApi,
  naming: (call) =>
    "shell" in call
      ? {
          name: "run_shell_command",
          input: { command: call.shell, description: "witness probe command" },
        }
      : { name: call.tool, input: call.input },
  // The prompt a rendered node puts on stdin stays there: dropped, the CLI would run without it.
  launch: ({ argv, baseUrl, cell, stdin }) => ({
    args: [...argv],
    ...(stdin === undefined ? {} : { stdin }),
    env: {
      GEMINI_API_KEY: DUMMY_KEY,
      GOOGLE_GEMINI_BASE_URL: baseUrl,
      // The machine's /etc/gemini-cli/settings.json would otherwise apply to every spawn.
      ...(cell === undefined
        ? {}
        : { GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(cell.root, "gemini-system-settings.json") }),
    },
  }),
  prepareCell,
  trustWorkspace,
  readTranscript,
  classify: classifyGeminiCall,
};

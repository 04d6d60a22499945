// The Gemini CLI driver: the Gemini API on the wire, ~/.gemini/settings.json and
// trustedFolders.json in the cell's HOME, chat JSONL under ~/.gemini/tmp.
import { join } from "node:path";

import { driftWarnings } from "../../transcripts/drift.js";
import {
  GEMINI_DENIED,
  geminiHomeDir,
  newestGeminiChat,
  readGeminiChat,
} from "../../transcripts/gemini-chat.js";
import { statedExitCode } from "../../transcripts/session-facts.js";
import { CLI_CATALOG } from "../contracts/clis.js";
import { geminiApi } from "../fake/gemini.js";
import {
  type CellPaths,
  noTranscript,
  type ProbeDriver,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, NO_SUCH_TOOL, plantJsonSettings } from "./shared.js";

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
    warnings: driftWarnings(path, chat.drift),
  };
}

// The exit codes of Gemini CLI's fatal errors, as its 0.61.0 bundle declares them (its FatalError
// subclasses); a headless run in a folder it does not trust ends with 55 before any request.
const GEMINI_EXITS: Readonly<Record<number, string>> = {
  41: "authentication failed",
  42: "bad input",
  44: "sandbox error",
  52: "configuration error",
  53: "turn limit reached",
  54: "tool execution error",
  55: "untrusted folder: headless Gemini CLI will not run in a folder it does not trust",
  130: "cancelled",
};

/** What Gemini CLI's exit code means, for the codes its fatal errors use; else null. */
export function geminiExitMeaning(exitCode: number): string | null {
  return GEMINI_EXITS[exitCode] ?? null;
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
  exitMeaning: geminiExitMeaning,
  outcome(result) {
    if (result === null) return "unknown";
    if (NO_SUCH_TOOL.test(result.text)) return "no-such-tool";
    if (result.isError) return GEMINI_DENIED.test(result.text) ? "denied" : "error";
    // A command that exits non-zero is a successful call whose exit code is in the output.
    const exit = statedExitCode(result.text);
    return exit === null || exit === 0 ? "ran" : "error";
  },
  // None reach a cell: 0.59.0 and 0.61.0 read system-defaults.json from the directory of
  // GEMINI_CLI_SYSTEM_SETTINGS_PATH (their getSystemDefaultsPath), which launch points into the cell
  // with the system settings, so /etc/gemini-cli is never read.
  managedFiles: [],
  instructionFiles: [
    { at: "workspace", path: "GEMINI.md", when: "trusted folder: from the cwd up to the git root" },
    { at: "workspace", path: "AGENTS.md", when: "only when context.fileName names it" },
    { at: "home", path: ".gemini/GEMINI.md", when: "always (into systemInstruction)" },
    {
      at: "home",
      path: ".gemini/tmp/ws/memory/MEMORY.md",
      when: "the user's project memory, for a project named ws",
    },
  ],
};

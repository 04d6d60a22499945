// The GitHub Copilot CLI driver: its native program run directly, offline (no GitHub call), its
// provider pointed at the fake's Chat Completions, the extracted package kept per version in the
// cell, sessions read from $COPILOT_HOME/session-state (facts: /work/research/copilot/NOTES.md).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyCopilotCall } from "../../clis/copilot/outcome.js";
import {
  copilotHomeDir,
  copilotRecorded,
  newestCopilotSession,
  readCopilotSession,
} from "../../transcripts/copilot-session.js";
import { openaiChat } from "../fake/openai-chat.js";
import {
  type CellPaths,
  noTranscript,
  type ProbeDriver,
  type RejectedArgv,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, sessionTranscript } from "./shared.js";

/** A model name Copilot does not know: a catalog name (gpt-5.4) would swap its tool set. */
export const COPILOT_MODEL = "witness-fake-model";

/**
 * Where version `version` extracts its ~235 MB package inside the cell: one directory per
 * version, because the loader runs the newest version it finds in its package caches.
 */
export function copilotPackageCache(cell: CellPaths, version: string): string {
  return join(cell.home, ".cache", `copilot-pkg-${version}`);
}

/** The flag Copilot refused before any request (1.0.102 clap, 1.0.60 commander), or null. */
export function copilotRejectedArgv(stderr: string): RejectedArgv | null {
  const flag = /^error: (?:unexpected argument|unknown option) '([^']+)'/m.exec(stderr);
  if (flag?.[1] !== undefined) return { flag: flag[1], message: flag[0] };
  const format = /^error: Invalid command format\..*$/m.exec(stderr);
  return format === null ? null : { flag: "(the prompt)", message: format[0] };
}

// Trust as Copilot persists it: `trusted_folders` in $COPILOT_HOME/config.json, added to what a
// fixture planted (the file is JSONC when Copilot wrote it: its `//` lines are dropped here).
async function trustWorkspace(cell: CellPaths): Promise<void> {
  const file = join(cell.home, ".copilot", "config.json");
  let config: Record<string, unknown> = {};
  try {
    const text = await readFile(file, "utf8");
    const parsed: unknown = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return;
    config = parsed as Record<string, unknown>;
  } catch (error) {
    // Only an absent file starts from nothing; a planted file that is not JSON is left alone.
    if ((error as { code?: string }).code !== "ENOENT") return;
  }
  const planted: unknown[] = Array.isArray(config.trusted_folders) ? config.trusted_folders : [];
  config.trusted_folders = [...new Set([...planted, cell.workspace])];
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const home = copilotHomeDir(env);
  const path = home === null ? null : await newestCopilotSession(home);
  if (path === null) return noTranscript();
  const session = await readCopilotSession(path, { markers: hints.markers });
  return sessionTranscript(
    path,
    { ...session, modes: session.permissionModes },
    copilotRecorded,
    classifyCopilotCall,
  );
}

/** GitHub Copilot CLI (`@github/copilot`), as the probe cell runs it. */
export const copilotDriver: ProbeDriver = {
  name: "copilot",
  info: CLI_CATALOG.copilot,
  // Its default wire; no title, summary or other side request in -p mode (1.0.60, 1.0.102).
  wire: openaiChat,
  naming: (call) =>
    "shell" in call
      ? { name: "bash", input: { command: call.shell, description: "witness probe command" } }
      : { name: call.tool, input: call.input },
  // Copilot retries a 5xx or a cut stream five times with backoff and has no switch for it.
  launch: ({ argv, baseUrl, version, cell, stdin }) => ({
    args: [...argv],
    ...(stdin === undefined ? {} : { stdin }),
    env: {
      COPILOT_OFFLINE: "true",
      COPILOT_AUTO_UPDATE: "false",
      COPILOT_PROVIDER_BASE_URL: `${baseUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: DUMMY_KEY,
      COPILOT_MODEL,
      ...(cell === undefined
        ? {}
        : {
            COPILOT_CACHE_HOME: copilotPackageCache(cell, version),
            COPILOT_PKG_CACHE_HOME: copilotPackageCache(cell, version),
          }),
    },
  }),
  trustWorkspace,
  rejectedArgv: copilotRejectedArgv,
  readTranscript,
  classify: classifyCopilotCall,
  sessionFixture: { name: "events.jsonl" },
};

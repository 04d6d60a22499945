// The opencode driver: Chat Completions on the wire, the provider in OPENCODE_CONFIG_CONTENT,
// seeded config directories (no background npm install), sessions read from its SQLite database.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyOpencodeCall } from "../../clis/opencode/outcome.js";
import type { RecordedCall } from "../../clis/outcome.js";
import { driftWarnings } from "../../transcripts/drift.js";
import {
  opencodeDbPath,
  opencodeRecorded,
  readOpencodeDb,
} from "../../transcripts/opencode-session.js";
import type { ToolOutcome } from "../contracts/observation.js";
import { openaiChat } from "../fake/openai-chat.js";
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

/** Reads the database opencode (or Kilo, its fork with the same tables) wrote in the cell. */
export async function readOpencodeTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
  cli: "opencode" | "kilo" = "opencode",
): Promise<TranscriptFacts> {
  const path = opencodeDbPath(env, cli);
  if (path === null || !existsSync(path)) return noTranscript();
  const db = await readOpencodeDb(path, { markers: hints.markers });
  const calls = new Map<string, RecordedCall>();
  const outcomes = new Map<string, ToolOutcome>();
  for (const call of db.toolCalls) {
    const recorded = opencodeRecorded(call);
    calls.set(call.callId, recorded);
    outcomes.set(call.callId, classifyOpencodeCall({ wire: null, recorded }).outcome);
  }
  const model = db.sessions.at(-1)?.model as { id?: unknown; providerID?: unknown } | undefined;
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(db.markersSeen),
    calls,
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
  readTranscript: (env, hints) => readOpencodeTranscript(env, hints),
  classify: classifyOpencodeCall,
  // After a run the rows are often only in the write-ahead log.
  sessionFixture: { companions: ["-wal"] },
};

// The Cline driver (3.x): its Bun-compiled program run directly, a provider file pointing at the
// fake's Anthropic Messages, the quiet settings that stop telemetry, the flag poll, self-update and
// the detached hub daemon; sessions read from $CLINE_DIR/data/sessions
// (facts: /work/research/cline/NOTES.md).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyClineCall } from "../../clis/cline/outcome.js";
import {
  clineRecorded,
  clineSessionsDir,
  newestClineSession,
  readClineSession,
} from "../../transcripts/cline-session.js";
import { anthropicMessages } from "../fake/anthropic-messages.js";
import {
  noTranscript,
  type PrepareInput,
  type ProbeDriver,
  type RejectedArgv,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, plantJsonSettings, sessionTranscript } from "./shared.js";

/** A model id Cline knows as Anthropic's (its id decides the prompt and the tool protocol). */
export const CLINE_MODEL = "claude-sonnet-4-5";

/** `$CLINE_DIR/data`, as the child's environment resolves it. */
function dataDir(env: Readonly<Record<string, string>>, home: string): string {
  if (env.CLINE_DATA_DIR) return env.CLINE_DATA_DIR;
  return join(env.CLINE_DIR || join(home, ".cline"), "data");
}

/**
 * The provider file (an `updatedAt` is required: without it the file is silently ignored and the
 * CLI falls back to api.cline.bot), the global settings that stop telemetry and self-update
 * (under a fixture's own), and a feature-flag cache dated far ahead so no poll is made.
 */
async function prepare({ cell, env, baseUrl }: PrepareInput): Promise<void> {
  const data = dataDir(env, cell.home);
  const settings = join(data, "settings");
  await mkdir(join(data, "cache"), { recursive: true });
  await plantJsonSettings(env.CLINE_PROVIDER_SETTINGS_PATH || join(settings, "providers.json"), {
    version: 1,
    lastUsedProvider: "anthropic",
    modes: {},
    providers: {
      anthropic: {
        // 3.x posts to `<baseUrl>/messages`.
        settings: {
          provider: "anthropic",
          apiKey: DUMMY_KEY,
          model: CLINE_MODEL,
          baseUrl: `${baseUrl}/v1`,
        },
        updatedAt: "2026-01-01T00:00:00.000Z",
        tokenSource: "manual",
      },
    },
  });
  await plantJsonSettings(
    env.CLINE_GLOBAL_SETTINGS_PATH || join(settings, "global-settings.json"),
    { telemetryOptOut: true, autoUpdateEnabled: false },
  );
  const flags = {
    version: 2,
    updatedAt: 4102444800000,
    userId: null,
    flagsPayload: { featureFlags: {}, featureFlagPayloads: {} },
  };
  await writeFile(join(data, "cache", "feature-flags.json"), `${JSON.stringify(flags)}\n`);
}

/** The flag Cline refused before any request (commander), or a one-word prompt taken as a command. */
export function clineRejectedArgv(stderr: string): RejectedArgv | null {
  const flag = /^error: (?:error: )?unknown option '([^']+)'/m.exec(stderr);
  if (flag?.[1] !== undefined) return { flag: flag[1], message: flag[0] };
  const word = /^Unknown command or unquoted prompt: .*$/m.exec(stderr);
  return word === null ? null : { flag: "(the prompt)", message: word[0] };
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const root = clineSessionsDir(env);
  const path = root === null ? null : await newestClineSession(root);
  if (path === null) return noTranscript();
  const session = await readClineSession(path, { markers: hints.markers });
  return sessionTranscript(path, session, clineRecorded, classifyClineCall);
}

/** Cline 3.x (`cline`), as the probe cell runs it. */
export const clineDriver: ProbeDriver = {
  name: "cline",
  info: CLI_CATALOG.cline,
  // One request per model turn, no title or summary call (3.0.57, 3.0.65).
  wire: anthropicMessages,
  naming: (call) =>
    "shell" in call
      ? { name: "run_commands", input: { commands: [call.shell] } }
      : { name: call.tool, input: call.input },
  // A 5xx is retried six times over about a minute, and no switch shortens it (`--retries` counts
  // the model's mistakes). The local backend keeps the setsid hub daemon (fixed port 25463) from
  // starting and outliving the spawn.
  launch: ({ argv, stdin }) => ({
    args: [...argv],
    ...(stdin === undefined ? {} : { stdin }),
    env: { CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" },
  }),
  // Cline has no trust: workspace rules, hooks and plugins load with no question asked.
  trustWorkspace: async () => {},
  prepare,
  rejectedArgv: clineRejectedArgv,
  readTranscript,
  classify: classifyClineCall,
  sessionFixture: { name: "messages.json" },
};

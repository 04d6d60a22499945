// The pi driver: Chat Completions on the wire, a provider in the agent directory's models.json
// (made the default in its settings.json), no approval layer, project trust (0.79.0+) in its
// trust.json, session JSONL. One driver for both packages (@mariozechner ≤0.73.1, @earendil-works).
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import type { RecordedCall } from "../../clis/outcome.js";
import { classifyPiCall } from "../../clis/pi/outcome.js";
import { compareVersions } from "../../core/version-order.js";
import { driftWarnings } from "../../transcripts/drift.js";
import {
  newestPiSession,
  piAgentDir,
  piRecorded,
  readPiSession,
} from "../../transcripts/pi-session.js";
import type { ToolOutcome } from "../contracts/observation.js";
import { openaiChat } from "../fake/openai-chat.js";
import {
  type CellPaths,
  noTranscript,
  type PrepareInput,
  type ProbeDriver,
  type RejectedArgv,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY } from "./shared.js";

/** The provider and model the cell's pi is pointed at. */
export const PI_PROVIDER = "witness";
export const PI_MODEL = "fake-model";

/** pi's project-trust store, in the agent directory. */
const TRUST_FILE = "trust.json";

async function readJson(file: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await readFile(file, "utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Adds the fake provider to `<agent dir>/models.json` and makes it the default in its
 * settings.json, keeping whatever the fixture wrote there; a launch then needs no `--model`.
 */
async function prepare({ cell, env, baseUrl }: PrepareInput): Promise<void> {
  const dir = piAgentDir(env) ?? join(cell.home, ".pi", "agent");
  await mkdir(dir, { recursive: true });
  const modelsFile = join(dir, "models.json");
  const models = await readJson(modelsFile);
  const provider = {
    baseUrl: `${baseUrl}/v1`,
    api: "openai-completions",
    apiKey: DUMMY_KEY,
    models: [{ id: PI_MODEL }],
  };
  const providers = { ...(models.providers as object | undefined), [PI_PROVIDER]: provider };
  await writeFile(modelsFile, JSON.stringify({ ...models, providers }, null, 2));
  const settingsFile = join(dir, "settings.json");
  const settings = await readJson(settingsFile);
  // No agent-level or provider retry, so a scripted fault ends the spawn at once (1.6.0 asked four
  // times in about 16 s on a 400 or a 500, 0.73.1 twelve times on a 500; with these, once).
  const had = (settings.retry ?? {}) as { provider?: object };
  const retry = { ...had, enabled: false, provider: { ...had.provider, maxRetries: 0 } };
  const defaults = { defaultProvider: PI_PROVIDER, defaultModel: PI_MODEL, retry };
  await writeFile(settingsFile, JSON.stringify({ ...settings, ...defaults }, null, 2));
  // The cell's trust entry went to ~/.pi/agent; an arm that moved the agent dir gets it there too.
  const home = join(cell.home, ".pi", "agent");
  if (dir !== home) {
    const granted = await readJson(join(home, TRUST_FILE));
    if (Object.keys(granted).length > 0) {
      const trust = await readJson(join(dir, TRUST_FILE));
      await writeFile(join(dir, TRUST_FILE), JSON.stringify({ ...trust, ...granted }, null, 2));
    }
  }
}

/** The first version that reads project trust (`--approve`, `<agent dir>/trust.json`). */
export const PI_TRUST_FROM = "0.79.0";

/**
 * Trusts the workspace as pi's own `/trust` does: `{<realpath of the workspace>: true}` in
 * `~/.pi/agent/trust.json` (kept beside the fixture's own entries). pi before 0.79.0 has no trust
 * and loads every project resource, so nothing is written for it.
 */
async function trustWorkspace(cell: CellPaths, version?: string): Promise<void> {
  if (version !== undefined && compareVersions(version, PI_TRUST_FROM) < 0) return;
  const dir = join(cell.home, ".pi", "agent");
  await mkdir(dir, { recursive: true });
  const trust = await readJson(join(dir, TRUST_FILE));
  const entry = { [await realpath(cell.workspace)]: true };
  await writeFile(join(dir, TRUST_FILE), JSON.stringify({ ...trust, ...entry }, null, 2));
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const dir = piAgentDir(env);
  const path = dir === null ? null : await newestPiSession(dir);
  if (path === null) return noTranscript();
  const session = await readPiSession(path, { markers: hints.markers });
  const calls = new Map<string, RecordedCall>();
  const outcomes = new Map<string, ToolOutcome>();
  for (const r of session.toolResults) {
    const recorded = piRecorded(r);
    if (recorded === null) continue;
    calls.set(r.toolCallId, recorded);
    outcomes.set(r.toolCallId, classifyPiCall({ wire: null, recorded }).outcome);
  }
  const model = session.models.at(-1);
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(session.markersSeen),
    calls,
    outcomes,
    model: model === undefined ? null : `${model.provider}/${model.modelId}`,
    finalText: session.finalText,
    warnings: driftWarnings(path, session.drift),
  };
}

/**
 * The option pi refused (`Error: Unknown option: --approve` from pi before 0.79.0, exit 1, no
 * request), or null.
 */
export function piRejectedArgv(stderr: string): RejectedArgv | null {
  const match = /Error: Unknown option: (\S+)/.exec(stderr);
  return match?.[1] === undefined ? null : { flag: match[1], message: match[0] };
}

/** pi (@mariozechner/pi-coding-agent, then @earendil-works/pi-coding-agent), as the cell runs it. */
export const piDriver: ProbeDriver = {
  name: "pi",
  info: CLI_CATALOG.pi,
  wire: openaiChat,
  naming: (call) =>
    "shell" in call
      ? { name: "bash", input: { command: call.shell } }
      : { name: call.tool, input: call.input },
  launch: ({ argv, stdin }) => ({
    args: [...argv],
    // No version check, no telemetry, no package lookups at start-up.
    env: { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" },
    ...(stdin === undefined ? {} : { stdin }),
  }),
  prepare,
  trustWorkspace,
  rejectedArgv: piRejectedArgv,
  readTranscript,
  // pi has no approval layer: a call that was offered either ran or failed.
  classify: classifyPiCall,
  // The session file is named by time and id (kept in meta.json); a fixture gives it a stable name.
  sessionFixture: { name: "session.jsonl" },
};

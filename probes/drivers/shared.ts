// What several drivers share: the dummy credential, the wording of a tool that does not exist,
// settings files planted under a fixture's own, and a read session turned into transcript facts.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

import type { CallClassifier, RecordedCall } from "../../clis/outcome.js";
import { hasErrno } from "../../core/fs-errors.js";
import { type Drift, driftWarnings } from "../../transcripts/drift.js";
import type { ToolOutcome } from "../contracts/observation.js";
import { noTranscript, type TranscriptFacts } from "./driver.js";

/** A dummy credential: the CLIs insist on a key, the fake server ignores it. */
export const DUMMY_KEY = "witness-dummy-key-not-a-secret";

/** How the CLIs say a tool is not there (Claude Code, Codex, and the generic phrasings). */
export const NO_SUCH_TOOL =
  /No such tool available|unsupported call|unsupported custom tool call|unknown tool|tool .* not found/i;

/** `base` with `over` laid on top, objects merged key by key (arrays and scalars replaced). */
export function deepMerge(
  base: Readonly<Record<string, unknown>>,
  over: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = isPlainObject(under) && isPlainObject(value) ? deepMerge(under, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A planted JSON object, `{}` when the file is absent, null when it is not a JSON object. */
async function plantedObject(path: string): Promise<Record<string, unknown> | null> {
  let planted: unknown = {};
  try {
    planted = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    // Only an absent file starts from nothing; a planted file that is not JSON is left alone.
    if (!hasErrno(error, "ENOENT")) return null;
  }
  return isPlainObject(planted) ? planted : null;
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Writes a CLI's JSON settings file with `defaults` under whatever the fixture already planted
 * there (the fixture's values win). A planted file that is not a JSON object is left as it is:
 * how the CLI takes it is part of the observation.
 */
export async function plantJsonSettings(
  path: string,
  defaults: Readonly<Record<string, unknown>>,
): Promise<void> {
  const planted = await plantedObject(path);
  if (planted !== null) await writeJson(path, deepMerge(defaults, planted));
}

/** The same, with `values` laid over what is planted (these values win), e.g. an arm's flags. */
export async function overlayJsonSettings(
  path: string,
  values: Readonly<Record<string, unknown>>,
): Promise<void> {
  const planted = await plantedObject(path);
  if (planted !== null) await writeJson(path, deepMerge(planted, values));
}

/** What a session reader gives back that a driver turns into transcript facts. */
export interface ReadSession<C extends { id: string }> {
  toolCalls: readonly C[];
  markersSeen: Iterable<string>;
  /** The permission modes (or approval modes) the session recorded, in order. */
  modes: readonly string[];
  models: readonly string[];
  finalText: string | null;
  drift: Drift;
}

/**
 * The transcript facts of one read session: each call as the CLI's classifier takes it (from its
 * record alone) and the last mode and model it recorded.
 */
export function sessionTranscript<C extends { id: string }>(
  path: string,
  session: ReadSession<C>,
  recordedOf: (call: C) => RecordedCall,
  classify: CallClassifier,
): TranscriptFacts {
  const calls = new Map<string, RecordedCall>();
  const outcomes = new Map<string, ToolOutcome>();
  for (const call of session.toolCalls) {
    const recorded = recordedOf(call);
    calls.set(call.id, recorded);
    outcomes.set(call.id, classify({ wire: null, recorded }).outcome);
  }
  return {
    ...noTranscript(),
    path,
    markersSeen: new Set(session.markersSeen),
    permissionMode: session.modes.at(-1) ?? null,
    permissionModes: [...session.modes],
    calls,
    outcomes,
    model: session.models.at(-1) ?? null,
    finalText: session.finalText,
    warnings: driftWarnings(path, session.drift),
  };
}

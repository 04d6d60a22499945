// Observation extraction: what reached the model, what the CLI offered and what actually ran.
// Everything CLI-specific comes from the driver: the wire protocol's views, the outcome rule.
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";

import {
  type MarkerLocation,
  type Observation,
  SENTINEL_CONTENT_KEPT,
  type Sighting,
  SIGHTING_CONTEXT,
  SIGHTING_CONTEXTS_KEPT,
  type ToolOutcome,
} from "../contracts/observation.js";
import { type Script, scriptCalls } from "../contracts/script.js";
import type { ProbeDriver, TranscriptFacts } from "../drivers/driver.js";
import type { CapturedRequest, IssuedCall } from "../fake/server.js";
import { sideRequestSummary } from "../fake/side-routes.js";
import {
  bodyEntries,
  HELPER_ANSWER,
  isHelperAnswer,
  issuedCalls,
  type WireProtocol,
} from "../fake/wire.js";
import { modelCallSummary } from "./model-calls.js";

const LOCATIONS = ["system", "messages", "tools", "transcript"] as const;

/**
 * Where a marker value appears across the agent's requests and the transcript (`inTranscript`:
 * the transcript reader found it while streaming the file). Helper calls and side traffic do
 * not count: a Warmup sub-agent also carries CLAUDE.md, but it is not the agent.
 */
export function markerSightings(
  wire: WireProtocol,
  requests: readonly CapturedRequest[],
  inTranscript: boolean,
  value: string,
): MarkerLocation[] {
  const seen = new Set<MarkerLocation>();
  for (const request of requests.filter((r) => wire.isAgentRequest(r))) {
    const sections = wire.sections(request.body);
    for (const location of ["system", "messages", "tools"] as const) {
      if (sections[location].includes(value)) seen.add(location);
    }
  }
  if (inTranscript) seen.add("transcript");
  return LOCATIONS.filter((l) => seen.has(l));
}

/**
 * Every occurrence of a marker value in the agent requests, per request, section and role, with
 * the text around the first few occurrences (for `near`). Side requests are not counted.
 */
export function markerOccurrences(
  wire: WireProtocol,
  requests: readonly CapturedRequest[],
  value: string,
): Sighting[] {
  const out: Sighting[] = [];
  requests
    .filter((r) => wire.isAgentRequest(r))
    .forEach((request, index) => {
      const byPlace = new Map<string, Sighting>();
      for (const entry of bodyEntries(wire, request.body)) {
        let at = entry.text.indexOf(value);
        while (at !== -1) {
          const key = `${entry.location}\u0000${entry.role ?? ""}`;
          let sighting = byPlace.get(key);
          if (sighting === undefined) {
            sighting = {
              request: index,
              location: entry.location,
              role: entry.role,
              count: 0,
              contexts: [],
            };
            byPlace.set(key, sighting);
            out.push(sighting);
          }
          sighting.count += 1;
          if (sighting.contexts.length < SIGHTING_CONTEXTS_KEPT)
            sighting.contexts.push({
              before: entry.text.slice(Math.max(0, at - SIGHTING_CONTEXT.before), at),
              after: entry.text.slice(
                at + value.length,
                at + value.length + SIGHTING_CONTEXT.after,
              ),
            });
          at = entry.text.indexOf(value, at + value.length);
        }
      }
    });
  return out;
}

/** A created sentinel file's first characters; null when nothing (or a directory) is there. */
export function sentinelContent(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return readFileSync(path, "utf8").slice(0, SENTINEL_CONTENT_KEPT);
  } catch {
    return null;
  }
}

/** Whether `text` names `path` as a whole path (not as the start of a longer name). */
function namesPath(text: string, path: string): boolean {
  for (let at = text.indexOf(path); at !== -1; at = text.indexOf(path, at + 1))
    if (!/[\w.-]/.test(text.charAt(at + path.length))) return true;
  return false;
}

/**
 * Each sentinel: created or not, its content, and for a created one the call that explains it:
 * the first whose input names its path and that ran (or ran and failed), by script place; null
 * when none did (another process made it, or the CLI ran a call it reported otherwise). Under a
 * sandbox, whether the spawn's own host uid owns it.
 */
export function sentinelFacts(
  sentinels: readonly { name: string; path: string }[],
  calls: readonly { input: unknown; outcome: ToolOutcome; call?: number }[],
  spawnUid?: number,
): Observation["sentinels"] {
  return sentinels.map((s) => {
    if (!existsSync(s.path)) return { ...s, created: false };
    const index = calls.findIndex(
      (c) =>
        (c.outcome === "ran" || c.outcome === "error") &&
        namesPath(JSON.stringify(c.input) ?? "", s.path),
    );
    const byCall = index === -1 ? null : (calls[index]?.call ?? index + 1);
    const owner = spawnUid === undefined ? {} : { madeBySpawn: ownerOf(s.path) === spawnUid };
    return { ...s, created: true, content: sentinelContent(s.path), byCall, ...owner };
  });
}

function ownerOf(path: string): number | null {
  try {
    return lstatSync(path).uid;
  } catch {
    return null;
  }
}

/** Each issued call's 1-based place in the script (turn, then its place in the reply that issued it). */
export function scriptPlaces(
  requests: readonly CapturedRequest[],
  script: Script,
): Map<string, number> {
  const places = new Map<string, number>();
  const calls = scriptCalls(script);
  const seen = new Set<string>();
  for (const request of requests) {
    const issued: readonly IssuedCall[] = request.issued ?? [];
    issued.forEach((call, position) => {
      if (seen.has(call.id)) return;
      seen.add(call.id);
      const place = calls.find((c) => c.turn === call.turn && c.position === position);
      if (place !== undefined) places.set(call.id, place.call);
    });
  }
  return places;
}

/** Tool names the agent requests offered, in first-seen order. */
export function toolsOffered(wire: WireProtocol, requests: readonly CapturedRequest[]): string[] {
  const names = new Set<string>();
  for (const r of requests.filter((q) => wire.isAgentRequest(q)))
    for (const n of wire.offeredTools(r.body)) names.add(n);
  return [...names];
}

/** The CLI's helper calls by kind, in first-seen order, with counts. */
export function helperCallSummary(
  requests: readonly CapturedRequest[],
): { kind: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of requests.filter((q) => isHelperAnswer(q.answer))) {
    const kind = r.answer.slice(HELPER_ANSWER.length);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => ({ kind, count }));
}

/** What the observer needs from one finished spawn. */
export interface ObserveInput {
  driver: Pick<ProbeDriver, "wire" | "classify">;
  requests: readonly CapturedRequest[];
  markers: readonly { name: string; value: string; planted: string[] }[];
  sentinels: readonly { name: string; path: string }[];
  transcript: TranscriptFacts;
  /** The script the fake played, to number the calls in script order. */
  script?: Script;
  /** A sandboxed spawn's host uid: the owner its created sentinels must have. */
  spawnUid?: number;
}

/** The request-, file- and transcript-derived fields of an Observation. */
export function observe(
  input: ObserveInput,
): Pick<
  Observation,
  | "markers"
  | "sentinels"
  | "toolsOffered"
  | "toolCalls"
  | "permissionMode"
  | "sandboxPolicy"
  | "requestCount"
  | "sideRequests"
  | "helperCalls"
  | "modelCalls"
  | "permissionModes"
  | "sandboxPolicies"
  | "model"
  | "tokenUsage"
  | "finalText"
  | "transcriptWarnings"
> {
  const { driver, requests, transcript } = input;
  const places =
    input.script === undefined ? new Map<string, number>() : scriptPlaces(requests, input.script);
  // The calls the fake actually issued during this spawn, as it recorded them.
  const toolCalls = issuedCalls(requests).map((call) => {
    const result = driver.wire.findResult(requests, call.id);
    // A call the CLI stopped at (opencode's auto-rejected ask) has only its session's record.
    const recorded = transcript.calls.get(call.id) ?? null;
    const judged = driver.classify({ wire: result, recorded });
    return {
      id: call.id,
      name: call.name,
      input: call.input,
      outcome: judged.outcome,
      because: judged.because,
      resultText: result?.text ?? recorded?.result?.text ?? "",
      // The CLI's own verdict: Qwen Code's error type when the call failed, else its decision.
      permissionDecision: recorded?.errorType ?? recorded?.decision ?? null,
      ...(places.has(call.id) ? { call: places.get(call.id) } : {}),
      ...transcriptOutcome(transcript, call.id),
    };
  });
  return {
    requestCount: requests.length,
    sideRequests: sideRequestSummary(requests),
    helperCalls: helperCallSummary(requests),
    modelCalls: modelCallSummary(driver.wire, requests),
    markers: input.markers.map((m) => ({
      ...m,
      seenIn: markerSightings(driver.wire, requests, transcript.markersSeen.has(m.value), m.value),
      sightings: markerOccurrences(driver.wire, requests, m.value),
    })),
    sentinels: sentinelFacts(input.sentinels, toolCalls, input.spawnUid),
    toolsOffered: toolsOffered(driver.wire, requests),
    toolCalls,
    permissionMode: transcript.permissionMode,
    sandboxPolicy: transcript.sandboxPolicy,
    permissionModes: transcript.permissionModes,
    sandboxPolicies: transcript.sandboxPolicies,
    model: transcript.model,
    tokenUsage: transcript.tokenUsage,
    finalText: transcript.finalText,
    transcriptWarnings: transcript.warnings,
  };
}

/** The transcript's own account of a call, when the transcript has one. */
function transcriptOutcome(
  transcript: TranscriptFacts,
  id: string,
): { transcriptOutcome?: ToolOutcome } {
  const outcome = transcript.outcomes.get(id);
  return outcome === undefined ? {} : { transcriptOutcome: outcome };
}

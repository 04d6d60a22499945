// Observation extraction: what reached the model, what the CLI offered and what actually ran.
// Everything CLI-specific comes from the driver: the wire protocol's views, the outcome rule.
import { existsSync } from "node:fs";

import type { MarkerLocation, Observation } from "../contracts/observation.js";
import type { ProbeDriver, TranscriptFacts } from "../drivers/driver.js";
import type { CapturedRequest } from "../fake/server.js";
import { sideRequestSummary } from "../fake/side-routes.js";
import { HELPER_ANSWER, isHelperAnswer, issuedCalls, type WireProtocol } from "../fake/wire.js";

const LOCATIONS = ["system", "messages", "tools", "transcript"] as const;

/**
 * Where a marker value appears across the agent's requests and the transcript. Helper calls and
 * side traffic do not count: a Warmup sub-agent also carries CLAUDE.md, but it is not the agent.
 */
export function markerSightings(
  wire: WireProtocol,
  requests: readonly CapturedRequest[],
  transcript: string,
  value: string,
): MarkerLocation[] {
  const seen = new Set<MarkerLocation>();
  for (const request of requests.filter((r) => wire.isAgentRequest(r))) {
    const sections = wire.sections(request.body);
    for (const location of ["system", "messages", "tools"] as const) {
      if (sections[location].includes(value)) seen.add(location);
    }
  }
  if (transcript.includes(value)) seen.add("transcript");
  return LOCATIONS.filter((l) => seen.has(l));
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
  driver: Pick<ProbeDriver, "wire" | "outcome">;
  requests: readonly CapturedRequest[];
  markers: readonly { name: string; value: string; planted: string[] }[];
  sentinels: readonly { name: string; path: string }[];
  transcript: TranscriptFacts;
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
> {
  const { driver, requests, transcript } = input;
  return {
    requestCount: requests.length,
    sideRequests: sideRequestSummary(requests),
    helperCalls: helperCallSummary(requests),
    markers: input.markers.map((m) => ({
      ...m,
      seenIn: markerSightings(driver.wire, requests, transcript.rawText, m.value),
    })),
    sentinels: input.sentinels.map((s) => ({ ...s, created: existsSync(s.path) })),
    toolsOffered: toolsOffered(driver.wire, requests),
    // The calls the fake actually issued during this spawn, as it recorded them.
    toolCalls: issuedCalls(requests).map((call) => {
      const result = driver.wire.findResult(requests, call.id);
      const decision = transcript.decisions.get(call.id) ?? null;
      return {
        id: call.id,
        name: call.name,
        input: call.input,
        outcome: driver.outcome(result, decision),
        resultText: result?.text ?? "",
        permissionDecision: decision,
      };
    }),
    permissionMode: transcript.permissionMode,
    sandboxPolicy: transcript.sandboxPolicy,
  };
}

// Observation extraction: what reached the model, what the CLI offered and what actually ran.
import { existsSync } from "node:fs";

import { readClaudeSession } from "../../transcripts/claude-session.js";
import { readCodexRollout } from "../../transcripts/codex-rollout.js";
import {
  claudeConfigDir,
  codexHomeDir,
  newestClaudeSession,
  newestCodexRollout,
} from "../../transcripts/locate.js";
import type { MarkerLocation, Observation } from "../contracts/observation.js";
import type { ProbeCliName } from "../contracts/probe-spec.js";
import type { IssuedCall } from "../fake/anthropic-messages.js";
import type { CapturedRequest } from "../fake/server.js";
import { agentRequests, bodySections, findWireResult, offeredTools } from "./request-views.js";
import { classifyOutcome } from "./tool-outcome.js";

/** The transcript fields observations use, whichever CLI wrote them. */
export interface TranscriptFacts {
  path: string | null;
  rawText: string;
  permissionMode: string | null;
  sandboxPolicy: string | null;
  /** Claude Code: permissionDecision.decision per tool_use id. */
  decisions: Map<string, string>;
}

/** Finds and reads the session file the CLI wrote, where the child's env points it (none: empty facts). */
export async function readTranscript(
  cli: ProbeCliName,
  env: Readonly<Record<string, string>>,
): Promise<TranscriptFacts> {
  const empty: TranscriptFacts = {
    path: null,
    rawText: "",
    permissionMode: null,
    sandboxPolicy: null,
    decisions: new Map(),
  };
  if (cli === "claude-code") {
    const configDir = claudeConfigDir(env);
    const path = configDir === null ? null : await newestClaudeSession(configDir);
    if (path === null) return empty;
    const session = await readClaudeSession(path);
    const decisions = new Map<string, string>();
    for (const r of session.toolResults) {
      if (r.permissionDecision?.decision !== undefined)
        decisions.set(r.toolUseId, String(r.permissionDecision.decision));
    }
    return {
      path,
      rawText: session.rawText,
      permissionMode: session.permissionMode,
      sandboxPolicy: null,
      decisions,
    };
  }
  const codexHome = codexHomeDir(env);
  const path = codexHome === null ? null : await newestCodexRollout(codexHome);
  if (path === null) return empty;
  const rollout = await readCodexRollout(path);
  const turn = rollout.latestTurnContext;
  return {
    path,
    rawText: rollout.rawText,
    permissionMode: turn?.approvalPolicy ?? null,
    sandboxPolicy: turn?.sandboxPolicy ?? null,
    decisions: new Map(),
  };
}

/** Where each marker value appears across the captured requests and the transcript. */
export function markerSightings(
  cli: ProbeCliName,
  requests: readonly CapturedRequest[],
  transcript: string,
  value: string,
): MarkerLocation[] {
  const seen = new Set<MarkerLocation>();
  for (const request of requests) {
    const sections = bodySections(cli, request.body);
    for (const location of ["system", "messages", "tools"] as const) {
      if (sections[location].includes(value)) seen.add(location);
    }
  }
  if (transcript.includes(value)) seen.add("transcript");
  return (["system", "messages", "tools", "transcript"] as const).filter((l) => seen.has(l));
}

/** Tool names the agent requests offered, in first-seen order. */
export function toolsOffered(cli: ProbeCliName, requests: readonly CapturedRequest[]): string[] {
  const names = new Set<string>();
  for (const r of agentRequests(cli, requests))
    for (const n of offeredTools(cli, r.body)) names.add(n);
  return [...names];
}

/** What the observer needs from one finished spawn. */
export interface ObserveInput {
  cli: ProbeCliName;
  requests: readonly CapturedRequest[];
  issued: readonly IssuedCall[];
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
> {
  const { cli, requests, transcript } = input;
  return {
    requestCount: requests.length,
    markers: input.markers.map((m) => ({
      ...m,
      seenIn: markerSightings(cli, requests, transcript.rawText, m.value),
    })),
    sentinels: input.sentinels.map((s) => ({ ...s, created: existsSync(s.path) })),
    toolsOffered: toolsOffered(cli, requests),
    toolCalls: input.issued.map((call) => {
      const result = findWireResult(cli, requests, call.id);
      const decision = transcript.decisions.get(call.id) ?? null;
      return {
        id: call.id,
        name: call.name,
        input: call.input,
        outcome: classifyOutcome(cli, result, decision),
        resultText: result?.text ?? "",
        permissionDecision: decision,
      };
    }),
    permissionMode: transcript.permissionMode,
    sandboxPolicy: transcript.sandboxPolicy,
  };
}

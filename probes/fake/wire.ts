// One fake model API per wire protocol: how it plays a script, and how its requests are read.
import type { MarkerLocation } from "../contracts/observation.js";
import type { Script, ToolCall } from "../contracts/script.js";
import type { CapturedRequest, IssuedCall, Responder } from "./server.js";

export type { IssuedCall } from "./server.js";

/** A scripted call as one CLI names it: its tool, the input, and (Codex) a free-form body. */
export interface NamedCall {
  name: string;
  input: Record<string, unknown>;
  /** Set for a free-form ("custom") tool: the raw text the tool receives instead of JSON. */
  freeform?: string;
}

/**
 * How a CLI names a scripted call, given the tool names the request offers (a version that offers
 * another shell tool gets a call to that one). Owned by the CLI's driver.
 */
export type CallNaming = (call: ToolCall, offered: readonly string[]) => NamedCall;

/**
 * A call a CLI makes on its model route for its own ends (a warm-up, a command-prefix check), not
 * the agent's turn: what kind it is, and the text that answers it.
 */
export interface HelperReply {
  kind: string;
  text: string;
}

/** Recognises a CLI's helper calls from a request body (null: an agent turn). Owned by its driver. */
export type HelperRecognizer = (body: unknown) => HelperReply | null;

/** The answer recorded for a helper call starts with this, then its kind. */
export const HELPER_ANSWER = "helper:";

/** True when the fake answered a request as one of the CLI's helper calls. */
export function isHelperAnswer(answer: string): boolean {
  return answer.startsWith(HELPER_ANSWER);
}

/** A tool call's result as the CLI sent it back to the model. */
export interface WireResult {
  isError: boolean;
  text: string;
}

/** The parts of a request body a marker can be found in, each as JSON text. */
export type BodySections = Record<Exclude<MarkerLocation, "transcript">, string>;

/** One entry of a request body as JSON text: its section and, where the section has them, its role. */
export interface WireEntry {
  location: Exclude<MarkerLocation, "transcript">;
  /** A message's role (`user`, `system`, a Codex `developer` item …); null for a section without roles. */
  role: string | null;
  text: string;
}

/** A fake model API. */
export interface WireProtocol {
  /** e.g. `anthropic-messages`; recorded beside the requests. */
  readonly name: string;
  /**
   * The responder that plays `script` (sentinels already resolved), naming calls with `naming`;
   * a request `helpers` recognises is answered with its text, never with a scripted turn.
   */
  responder: (script: Script, naming: CallNaming, helpers?: HelperRecognizer) => Responder;
  /** True for a request that is an agent turn (not a classifier, a helper call or side traffic). */
  isAgentRequest: (request: CapturedRequest) => boolean;
  /** The system prompt, messages and tool definitions of a body. */
  sections: (body: unknown) => BodySections;
  /** The same body entry by entry, with roles (absent: the three sections, each without a role). */
  entries?: (body: unknown) => WireEntry[];
  /** The tool names one request body offers, in order. */
  offeredTools: (body: unknown) => string[];
  /** The result the CLI sent back for call `id`, in the first request that carries it. */
  findResult: (requests: readonly CapturedRequest[], id: string) => WireResult | null;
}

/** A body's entries through the protocol's `entries`, or its three sections without roles. */
export function bodyEntries(wire: WireProtocol, body: unknown): WireEntry[] {
  if (wire.entries !== undefined) return wire.entries(body);
  const sections = wire.sections(body);
  return (["system", "messages", "tools"] as const).map((location) => ({
    location,
    role: null,
    text: sections[location],
  }));
}

/** The calls the fake issued during a spawn, from the captured requests, first issue of each id. */
export function issuedCalls(requests: readonly CapturedRequest[]): IssuedCall[] {
  const seen = new Map<string, IssuedCall>();
  for (const request of requests)
    for (const call of request.issued ?? []) if (!seen.has(call.id)) seen.set(call.id, call);
  return [...seen.values()];
}

/** A value as a plain object (an empty one for anything else). */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** A value as an array (an empty one for anything else). */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** The text of a tool result's content: a string, or text blocks joined. */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((c) => (typeof c === "string" ? c : record(c).text))
    .filter((t): t is string => typeof t === "string")
    .join("\n");
}

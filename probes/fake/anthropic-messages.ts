// Fake Anthropic Messages API (Claude Code): plays a script as SSE or plain JSON, and reads the
// requests: system prompt, messages, tool definitions and the tool results sent back.
import { randomBytes } from "node:crypto";

import type { Fault, Script } from "../contracts/script.js";
import type { CapturedRequest, IssuedCall, Reply } from "./server.js";
import { sseEvent } from "./server.js";
import {
  type BodySections,
  type CallNaming,
  HELPER_ANSWER,
  type HelperRecognizer,
  isHelperAnswer,
  list,
  record,
  resultText,
  type WireEntry,
  type WireProtocol,
  type WireResult,
} from "./wire.js";

const CLASSIFIER_PREFIX = "You are a security monitor";
const ROUTE = "/v1/messages";

/** The system prompt's text, whether sent as a string or as text blocks. */
export function systemTexts(system: unknown): string[] {
  if (typeof system === "string") return [system];
  if (!Array.isArray(system)) return [];
  return system.map((b) => record(b).text).filter((t): t is string => typeof t === "string");
}

/** True when a request is the auto/plan-mode security classifier rather than the agent turn. */
export function isClassifierRequest(body: unknown): boolean {
  return systemTexts(record(body).system).some((t) => t.trimStart().startsWith(CLASSIFIER_PREFIX));
}

/** Which scripted turn a request asks for: the number of assistant messages already in it. */
export function anthropicTurnIndex(body: unknown): number {
  const messages = record(body).messages;
  if (!Array.isArray(messages)) return 0;
  return messages.filter((m) => record(m).role === "assistant").length;
}

type Block = { type: "text"; text: string } | IssuedCall;

// Claude Code merges assistant messages that share an id, so a reused id makes every later
// request look like the same turn and the script replays one call forever: one id per reply.
function messageId(): string {
  return `msg_w${randomBytes(8).toString("hex")}`;
}

function messageStart(model: string): unknown {
  return {
    type: "message_start",
    message: {
      id: messageId(),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
}

function blockEvents(block: Block, index: number): string[] {
  if ("type" in block) {
    return [
      sseEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }),
      sseEvent("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      }),
      sseEvent("content_block_stop", { type: "content_block_stop", index }),
    ];
  }
  // Claude Code ignores input placed in content_block_start: it must be streamed as JSON deltas.
  return [
    sseEvent("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
    }),
    sseEvent("content_block_delta", {
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
    }),
    sseEvent("content_block_stop", { type: "content_block_stop", index }),
  ];
}

/** True when the request asks the API for the server-side safety verdict (auto and plan modes). */
export function wantsSafeguardVerdict(body: unknown): boolean {
  const safeguards = record(body).safeguards;
  return (
    Array.isArray(safeguards) && safeguards.some((s) => record(s).type === "dangerous_tool_use")
  );
}

/**
 * The server-side verdict Claude Code's auto/plan modes wait for (2.1.332: `safeguard_results`,
 * one `evaluated` entry per tool_use id), answered per the script's classifier setting.
 */
export function safeguardResults(blocks: readonly Block[], classifier: Script["classifier"]) {
  const verdict =
    classifier === "allow"
      ? { type: "evaluated", outcome: "not_flagged" }
      : { type: "evaluated", outcome: "flagged", explanation: "witness script blocks this action" };
  const toolUses = Object.fromEntries(
    blocks.flatMap((b) => ("type" in b ? [] : [[b.id, verdict]])),
  );
  return [{ type: "dangerous_tool_use", status: { type: "available", tool_uses: toolUses } }];
}

type Verdict = ReturnType<typeof safeguardResults> | null;

function streamChunks(model: string, blocks: readonly Block[], verdict: Verdict = null): string[] {
  const stop = blocks.some((b) => !("type" in b)) ? "tool_use" : "end_turn";
  return [
    sseEvent("message_start", messageStart(model)),
    ...blocks.flatMap(blockEvents),
    sseEvent("message_delta", {
      type: "message_delta",
      delta: {
        stop_reason: stop,
        stop_sequence: null,
        ...(verdict === null ? {} : { safeguard_results: verdict }),
      },
      usage: { output_tokens: 1 },
    }),
    sseEvent("message_stop", { type: "message_stop" }),
  ];
}

function plainMessage(model: string, blocks: readonly Block[], verdict: Verdict = null): unknown {
  const stop = blocks.some((b) => !("type" in b)) ? "tool_use" : "end_turn";
  return {
    ...(verdict === null ? {} : { safeguard_results: verdict }),
    id: messageId(),
    type: "message",
    role: "assistant",
    model,
    content: blocks.map((b) =>
      "type" in b ? b : { type: "tool_use", id: b.id, name: b.name, input: b.input },
    ),
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

function faultReply(fault: Fault, model: string): Reply {
  if ("status" in fault) {
    return {
      kind: "json",
      status: fault.status,
      body: { type: "error", error: { type: "api_error", message: "witness scripted fault" } },
      answer: `fault:status:${fault.status}`,
    };
  }
  if ("truncate" in fault) {
    const head = streamChunks(model, [{ type: "text", text: "truncated" }]).slice(0, 3);
    return { kind: "truncate", chunks: head, answer: "fault:truncate" };
  }
  return { kind: "hang", answer: "fault:hang" };
}

function offered(body: unknown): string[] {
  return list(record(body).tools)
    .map((tool) => record(tool).name)
    .filter((name): name is string => typeof name === "string");
}

/** The calls of turn `t`, named for this request's tools, with ids the CLI echoes back. */
function callsOf(script: Script, t: number, naming: CallNaming, body: unknown): IssuedCall[] {
  const turn = script.turns[t];
  if (turn === undefined || !("calls" in turn)) return [];
  const tools = offered(body);
  return turn.calls.map((call, k) => {
    const { name, input } = naming(call, tools);
    return { id: `toolu_w${t}_${k}`, turn: t, name, input };
  });
}

function respond(
  script: Script,
  naming: CallNaming,
  helpers: HelperRecognizer | undefined,
  path: string,
  body: unknown,
): Reply {
  if (path.split("?")[0] !== ROUTE) {
    return { kind: "json", status: 404, body: { error: "not found" }, answer: "not-found" };
  }
  const b = record(body);
  const model = typeof b.model === "string" ? b.model : "claude-witness";
  let blocks: Block[];
  let answer: string;
  let issued: IssuedCall[] = [];
  const helper = helpers?.(body) ?? null;
  if (helper !== null) {
    // The CLI's own call (a warm-up, a prefix check): text, never the script's turn.
    blocks = [{ type: "text", text: helper.text }];
    answer = `${HELPER_ANSWER}${helper.kind}`;
  } else if (isClassifierRequest(body)) {
    const text =
      script.classifier === "allow"
        ? "<block>no</block>"
        : "<block>yes</block><reason>witness script blocks this action</reason>";
    blocks = [{ type: "text", text }];
    answer = `classifier:${script.classifier}`;
  } else {
    const t = anthropicTurnIndex(body);
    const turn = script.turns[t];
    if (turn !== undefined && "fault" in turn) return faultReply(turn.fault, model);
    issued = callsOf(script, t, naming, body);
    if (turn === undefined) blocks = [{ type: "text", text: script.final }];
    else if ("text" in turn) blocks = [{ type: "text", text: turn.text }];
    else blocks = issued;
    answer = turn === undefined ? "final" : `turn:${t}`;
  }
  const verdict = wantsSafeguardVerdict(body) ? safeguardResults(blocks, script.classifier) : null;
  return b.stream === true
    ? { kind: "sse", chunks: streamChunks(model, blocks, verdict), answer, issued }
    : { kind: "json", status: 200, body: plainMessage(model, blocks, verdict), answer, issued };
}

function sections(body: unknown): BodySections {
  const b = record(body);
  return {
    system: JSON.stringify(b.system ?? ""),
    messages: JSON.stringify(b.messages ?? []),
    tools: JSON.stringify(b.tools ?? []),
  };
}

// A system-role entry inside `messages` (Claude Code 2.1.200+) keeps its role here.
function entries(body: unknown): WireEntry[] {
  const b = record(body);
  return [
    { location: "system", role: null, text: JSON.stringify(b.system ?? "") },
    ...list(b.messages).map((m) => ({
      location: "messages" as const,
      role: typeof record(m).role === "string" ? String(record(m).role) : null,
      text: JSON.stringify(m),
    })),
    { location: "tools", role: null, text: JSON.stringify(b.tools ?? []) },
  ];
}

function isAgentRequest(r: CapturedRequest): boolean {
  return (
    r.path.split("?")[0] === ROUTE && !isHelperAnswer(r.answer) && !isClassifierRequest(r.body)
  );
}

// Only agent turns: a helper's conversation must never stand in for the agent's tool result.
function findResult(requests: readonly CapturedRequest[], id: string): WireResult | null {
  for (const request of requests.filter(isAgentRequest)) {
    for (const message of list(record(request.body).messages)) {
      for (const block of list(record(message).content)) {
        const r = record(block);
        if (r.type === "tool_result" && r.tool_use_id === id) {
          return { isError: r.is_error === true, text: resultText(r.content) };
        }
      }
    }
  }
  return null;
}

/** The Messages API as Claude Code speaks it: `POST /v1/messages`, SSE or JSON. */
export const anthropicMessages: WireProtocol = {
  name: "anthropic-messages",
  responder: (script, naming, helpers) => (path, body) =>
    respond(script, naming, helpers, path, body),
  isAgentRequest,
  sections,
  entries,
  offeredTools: offered,
  findResult,
};

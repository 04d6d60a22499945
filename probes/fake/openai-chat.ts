// Fake OpenAI Chat Completions API (pi, opencode, Qwen Code): plays a script as SSE chunks with
// tool-call arguments streamed in pieces, and reads the requests: system messages as the system
// prompt, `tools[].function` as the offered tools, `role: "tool"` messages as the results.
import type { Fault, Script } from "../contracts/script.js";
import type { CapturedRequest, IssuedCall, Reply } from "./server.js";
import {
  type BodySections,
  type CallNaming,
  HELPER_ANSWER,
  type HelperRecognizer,
  isHelperAnswer,
  list,
  record,
  resultText,
  type WireProtocol,
  type WireResult,
} from "./wire.js";

const ROUTE = "/v1/chat/completions";
const SYSTEM_ROLES = new Set(["system", "developer"]);

/**
 * A request that is not an agent turn, known by how its system prompt starts, and its answer:
 * answered like a driver's helper call (recorded as `helper:<name>`, never a scripted turn).
 */
export interface SideRequest {
  /** A short name, recorded as the answer `helper:<name>`. */
  name: string;
  /** The start of the system prompt that marks it. */
  systemPrefix: string;
  /** The text the fake answers it with. */
  text: string;
}

/** opencode's title call (sent unless `--title` is given): any short text answers it. */
export const OPENCODE_TITLE: SideRequest = {
  name: "title",
  systemPrefix: "You are a title generator",
  text: "witness probe",
};

/** The system prompt's texts: every system or developer message, string or text parts. */
function systemTexts(body: unknown): string[] {
  return list(record(body).messages)
    .map(record)
    .filter((m) => SYSTEM_ROLES.has(String(m.role)))
    .map((m) => resultText(m.content));
}

/** Which scripted turn a request asks for: the assistant messages already in it. */
export function chatTurnIndex(body: unknown): number {
  return list(record(body).messages).filter((m) => record(m).role === "assistant").length;
}

/** Cuts `text` into `parts` pieces of about equal length (a client must join them). */
export function splitArguments(text: string, parts = 3): string[] {
  if (text.length < parts) return [text];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** The chunk envelope every streamed event shares. */
function chunk(id: string, model: string, delta: unknown, finish: string | null = null): unknown {
  return {
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** The SSE chunks of one reply: a role chunk, text or tool calls in pieces, finish, usage, [DONE]. */
export function streamChunks(
  id: string,
  model: string,
  reply: { text: string } | { calls: readonly IssuedCall[] },
): string[] {
  const events: unknown[] = [chunk(id, model, { role: "assistant", content: "" })];
  if ("text" in reply) {
    for (const piece of splitArguments(reply.text, 2))
      events.push(chunk(id, model, { content: piece }));
  } else {
    reply.calls.forEach((call, index) => {
      const fn = { name: call.name, arguments: "" };
      events.push(
        chunk(id, model, { tool_calls: [{ index, id: call.id, type: "function", function: fn }] }),
      );
      for (const piece of splitArguments(JSON.stringify(call.input)))
        events.push(chunk(id, model, { tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  events.push(chunk(id, model, {}, "text" in reply ? "stop" : "tool_calls"));
  events.push({
    id,
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [],
    usage: USAGE,
  });
  return [...events.map(data), "data: [DONE]\n\n"];
}

/** The same reply as one non-streamed `chat.completion` body. */
export function completionBody(
  id: string,
  model: string,
  reply: { text: string } | { calls: readonly IssuedCall[] },
): unknown {
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          content: null,
          tool_calls: reply.calls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: JSON.stringify(c.input) },
          })),
        };
  const finish_reason = "text" in reply ? "stop" : "tool_calls";
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason }],
    usage: USAGE,
  };
}

function faultReply(fault: Fault, id: string, model: string): Reply {
  if ("status" in fault) {
    return {
      kind: "json",
      status: fault.status,
      body: { error: { message: "witness scripted fault", type: "server_error" } },
      answer: `fault:status:${fault.status}`,
    };
  }
  if ("truncate" in fault) {
    // The role chunk and half a text: no finish_reason, no [DONE].
    const head = streamChunks(id, model, { text: "truncated" }).slice(0, 2);
    return { kind: "truncate", chunks: head, answer: "fault:truncate" };
  }
  return { kind: "hang", answer: "fault:hang" };
}

function offeredTools(body: unknown): string[] {
  return list(record(body).tools)
    .map((t) => record(record(t).function).name)
    .filter((n): n is string => typeof n === "string");
}

/** The options of a Chat Completions fake: the side requests its CLIs send. */
export interface OpenaiChatOptions {
  sideRequests?: readonly SideRequest[];
}

/**
 * A Chat Completions fake that recognises `sideRequests` (answered with text, no turn used), as
 * it does a driver's own helper calls.
 */
export function createOpenaiChat(options: OpenaiChatOptions = {}): WireProtocol {
  const sides = options.sideRequests ?? [];
  const sideOf = (body: unknown): SideRequest | undefined => {
    const texts = systemTexts(body);
    return sides.find((s) => texts.some((t) => t.trimStart().startsWith(s.systemPrefix)));
  };

  function responder(script: Script, naming: CallNaming, helpers?: HelperRecognizer) {
    let replies = 0;
    return (path: string, body: unknown): Reply => {
      if (path.split("?")[0] !== ROUTE) {
        return { kind: "json", status: 404, body: { error: "not found" }, answer: "not-found" };
      }
      const b = record(body);
      const model = typeof b.model === "string" ? b.model : "witness-fake";
      const streamed = b.stream === true;
      // Each reply its own id: a client that keys messages by id never merges two turns.
      const id = `chatcmpl-w${(replies += 1)}`;
      const send = (reply: { text: string } | { calls: IssuedCall[] }, answer: string): Reply => {
        const issued = "calls" in reply ? reply.calls : [];
        return streamed
          ? { kind: "sse", chunks: streamChunks(id, model, reply), answer, issued }
          : { kind: "json", status: 200, body: completionBody(id, model, reply), answer, issued };
      };
      const declared = sideOf(body);
      const helper =
        helpers?.(body) ??
        (declared === undefined ? null : { kind: declared.name, text: declared.text });
      if (helper !== null) return send({ text: helper.text }, `${HELPER_ANSWER}${helper.kind}`);
      const t = chatTurnIndex(body);
      const turn = script.turns[t];
      if (turn !== undefined && "fault" in turn) return faultReply(turn.fault, id, model);
      if (turn === undefined) return send({ text: script.final }, "final");
      if ("text" in turn) return send({ text: turn.text }, `turn:${t}`);
      const tools = offeredTools(body);
      const calls = turn.calls.map((call, k): IssuedCall => {
        const { name, input } = naming(call, tools);
        return { id: `call_w${t}_${k}`, turn: t, name, input };
      });
      return send({ calls }, `turn:${t}`);
    };
  }

  return {
    name: "openai-chat",
    responder,
    isAgentRequest: (r) =>
      r.path.split("?")[0] === ROUTE && !isHelperAnswer(r.answer) && sideOf(r.body) === undefined,
    sections,
    offeredTools,
    findResult,
  };
}

function sections(body: unknown): BodySections {
  const b = record(body);
  const messages = list(b.messages);
  const isSystem = (m: unknown) => SYSTEM_ROLES.has(String(record(m).role));
  return {
    system: JSON.stringify(messages.filter(isSystem)),
    messages: JSON.stringify(messages.filter((m) => !isSystem(m))),
    tools: JSON.stringify(b.tools ?? []),
  };
}

// Chat Completions has no error flag on a tool message: the driver reads the text.
function findResult(requests: readonly CapturedRequest[], id: string): WireResult | null {
  for (const request of requests) {
    for (const raw of list(record(request.body).messages)) {
      const m = record(raw);
      if (m.role === "tool" && m.tool_call_id === id)
        return { isError: false, text: resultText(m.content) };
    }
  }
  return null;
}

/** Chat Completions as pi and opencode speak it: `POST /v1/chat/completions`, SSE. */
export const openaiChat: WireProtocol = createOpenaiChat({ sideRequests: [OPENCODE_TITLE] });

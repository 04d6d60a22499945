// Fake OpenAI Responses API (Codex): plays a script as SSE, and reads the requests: developer
// messages as the system prompt, the tools (top-level or an `additional_tools` item), and the
// outputs of function and custom tool calls.
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

const ROUTE = "/v1/responses";
const CALL_TYPES = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
const OUTPUT_TYPES = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "local_shell_call_output",
]);

/** The JavaScript Codex's `exec` custom tool runs for one shell command. */
export function execProgram(cmd: string): string {
  return `const a = await tools.exec_command({cmd: ${JSON.stringify(cmd)}});\ntext(JSON.stringify(a));`;
}

/**
 * Which scripted turn a request asks for: the assistant messages already in `input`, plus one
 * per turn whose calls the CLI echoes back (the fake knows which turn each of its ids belongs to).
 */
export function openaiTurnIndex(body: unknown, turnOfId: ReadonlyMap<string, number>): number {
  let messages = 0;
  const callTurns = new Set<string>();
  for (const raw of list(record(body).input)) {
    const item = record(raw);
    if (item.type === "message" && item.role === "assistant") messages += 1;
    if (CALL_TYPES.has(String(item.type)) && typeof item.call_id === "string") {
      const turn = turnOfId.get(item.call_id);
      callTurns.add(turn === undefined ? `id:${item.call_id}` : `turn:${turn}`);
    }
  }
  return messages + callTurns.size;
}

function itemDone(item: unknown): string {
  return sseEvent(null, { type: "response.output_item.done", item });
}

function completed(): string {
  return sseEvent(null, { type: "response.completed", response: { id: "resp_witness" } });
}

function messageItem(text: string): unknown {
  return { type: "message", role: "assistant", content: [{ type: "output_text", text }] };
}

function callItem(call: IssuedCall & { freeform?: string }): unknown {
  if (call.freeform !== undefined) {
    const item = { call_id: call.id, name: call.name, status: "completed", input: call.freeform };
    return { type: "custom_tool_call", ...item };
  }
  const args = JSON.stringify(call.input);
  return {
    type: "function_call",
    call_id: call.id,
    name: call.name,
    arguments: args,
    status: "completed",
  };
}

function faultReply(fault: Fault): Reply {
  if ("status" in fault) {
    return {
      kind: "json",
      status: fault.status,
      body: { error: { message: "witness scripted fault", type: "server_error" } },
      answer: `fault:status:${fault.status}`,
    };
  }
  if ("truncate" in fault) {
    return {
      kind: "truncate",
      chunks: [itemDone(messageItem("truncated"))],
      answer: "fault:truncate",
    };
  }
  return { kind: "hang", answer: "fault:hang" };
}

/** Tool names one request offers: namespaces' tools, and `exec.<name>` for exec's nested tools. */
function offeredTools(body: unknown): string[] {
  const b = record(body);
  const names: string[] = [];
  const visit = (tool: unknown): void => {
    const t = record(tool);
    if (t.type === "namespace") return list(t.tools).forEach(visit);
    if (typeof t.name !== "string") return;
    names.push(t.name);
    if (t.name === "exec" && typeof t.description === "string") {
      for (const m of t.description.matchAll(/declare const tools: \{ ([A-Za-z0-9_]+)\(/g))
        names.push(`exec.${m[1] ?? ""}`);
    }
  };
  list(b.tools).forEach(visit);
  for (const item of list(b.input))
    if (record(item).type === "additional_tools") list(record(item).tools).forEach(visit);
  return names;
}

function responder(script: Script, naming: CallNaming, helpers?: HelperRecognizer) {
  const turnOfId = new Map<string, number>();
  return (path: string, body: unknown): Reply => {
    if (path.split("?")[0] !== ROUTE) {
      return { kind: "json", status: 404, body: { error: "not found" }, answer: "not-found" };
    }
    const helper = helpers?.(body) ?? null;
    if (helper !== null) {
      const chunks = [itemDone(messageItem(helper.text)), completed()];
      return { kind: "sse", chunks, answer: `${HELPER_ANSWER}${helper.kind}` };
    }
    const t = openaiTurnIndex(body, turnOfId);
    const turn = script.turns[t];
    if (turn !== undefined && "fault" in turn) return faultReply(turn.fault);
    if (turn === undefined || "text" in turn) {
      const text = turn === undefined ? script.final : turn.text;
      const answer = turn === undefined ? "final" : `turn:${t}`;
      return { kind: "sse", chunks: [itemDone(messageItem(text)), completed()], answer };
    }
    const tools = offeredTools(body);
    const calls = turn.calls.map((call, k) => {
      const { name, input, freeform } = naming(call, tools);
      const id = `call_w${t}_${k}`;
      turnOfId.set(id, t);
      return { id, turn: t, name, input, ...(freeform === undefined ? {} : { freeform }) };
    });
    const issued = calls.map(({ id, turn: n, name, input }) => ({ id, turn: n, name, input }));
    return {
      kind: "sse",
      chunks: [...calls.map((c) => itemDone(callItem(c))), completed()],
      answer: `turn:${t}`,
      issued,
    };
  };
}

// Codex sends its system prompt as developer messages and its tools as an additional_tools item.
function sections(body: unknown): BodySections {
  const b = record(body);
  const input = list(b.input);
  const isTools = (i: unknown) => record(i).type === "additional_tools";
  const isSystem = (i: unknown) =>
    !isTools(i) &&
    record(i).type === "message" &&
    ["developer", "system"].includes(String(record(i).role));
  return {
    system: JSON.stringify([b.instructions ?? "", ...input.filter(isSystem)]),
    messages: JSON.stringify(input.filter((i) => !isTools(i) && !isSystem(i))),
    tools: JSON.stringify([b.tools ?? [], ...input.filter(isTools)]),
  };
}

function isAgentRequest(r: CapturedRequest): boolean {
  return r.path.split("?")[0] === ROUTE && !isHelperAnswer(r.answer);
}

// The same split as `sections`, one input item at a time, each with its role (or its type).
function entries(body: unknown): WireEntry[] {
  const b = record(body);
  const out: WireEntry[] = [
    { location: "system", role: null, text: JSON.stringify(b.instructions ?? "") },
  ];
  for (const raw of list(b.input)) {
    const item = record(raw);
    const role = typeof item.role === "string" ? item.role : null;
    const location =
      item.type === "additional_tools"
        ? "tools"
        : item.type === "message" && ["developer", "system"].includes(String(item.role))
          ? "system"
          : "messages";
    out.push({ location, role: location === "tools" ? null : role, text: JSON.stringify(raw) });
  }
  out.push({ location: "tools", role: null, text: JSON.stringify(b.tools ?? []) });
  return out;
}

function findResult(requests: readonly CapturedRequest[], id: string): WireResult | null {
  for (const request of requests.filter(isAgentRequest)) {
    for (const item of list(record(request.body).input)) {
      const r = record(item);
      if (OUTPUT_TYPES.has(String(r.type)) && r.call_id === id) {
        const output = record(r.output);
        // Older versions send `{content, success}` objects instead of a string.
        const text =
          typeof r.output === "string" ? r.output : resultText(output.content ?? r.output);
        return { isError: output.success === false, text };
      }
    }
  }
  return null;
}

/** The Responses API as Codex speaks it: `POST /v1/responses`, SSE. */
export const openaiResponses: WireProtocol = {
  name: "openai-responses",
  responder,
  isAgentRequest,
  sections,
  entries,
  offeredTools,
  findResult,
};

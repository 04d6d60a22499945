// Fake OpenAI Responses API: plays a script to Codex as SSE; shell calls go through its `exec` tool.
import type { Fault, Script, ToolCall } from "../contracts/script.js";
import type { IssuedCall } from "./anthropic-messages.js";
import type { Reply, Responder } from "./server.js";
import { sseEvent } from "./server.js";

/** The JavaScript Codex's `exec` custom tool runs for one shell command. */
export function execProgram(cmd: string): string {
  return `const a = await tools.exec_command({cmd: ${JSON.stringify(cmd)}});\ntext(JSON.stringify(a));`;
}

/**
 * Codex's name and input for one scripted call. A shell command, or `{tool: "exec", input: {code}}`,
 * becomes the `exec` custom tool; any other tool a function call with JSON arguments.
 */
function codexCall(call: ToolCall): { name: string; input: Record<string, unknown> } {
  if ("shell" in call) return { name: "exec", input: { code: execProgram(call.shell) } };
  return { name: call.tool, input: call.input };
}

/** The tool calls a script issues to Codex, with their deterministic call ids. */
export function openaiIssuedCalls(script: Script): IssuedCall[] {
  return script.turns.flatMap((turn, t) =>
    "calls" in turn ? turn.calls.map((c, k) => ({ id: `call_w${t}_${k}`, ...codexCall(c) })) : [],
  );
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * Which scripted turn a request asks for: assistant messages already in `input`, plus one per
 * distinct turn of tool calls (several calls of one turn share the `call_w<turn>_` prefix).
 */
export function openaiTurnIndex(body: unknown): number {
  const input = record(body).input;
  if (!Array.isArray(input)) return 0;
  let messages = 0;
  const callTurns = new Set<string>();
  for (const raw of input) {
    const item = record(raw);
    if (item.type === "message" && item.role === "assistant") messages += 1;
    const isCall = item.type === "custom_tool_call" || item.type === "function_call";
    if (isCall && typeof item.call_id === "string") {
      const match = /^call_w(\d+)_/.exec(item.call_id);
      callTurns.add(match?.[1] ?? item.call_id);
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
  return {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text }],
  };
}

function callItem(call: IssuedCall): unknown {
  if (call.name === "exec" && typeof call.input.code === "string") {
    return {
      type: "custom_tool_call",
      call_id: call.id,
      name: "exec",
      status: "completed",
      input: call.input.code,
    };
  }
  return {
    type: "function_call",
    call_id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.input),
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

/** A responder for `POST /v1/responses` that plays `script` (sentinels already resolved). */
export function openaiResponder(script: Script): Responder {
  const issued = openaiIssuedCalls(script);
  return (path, body) => {
    if (path.split("?")[0] !== "/v1/responses") {
      return { kind: "json", status: 404, body: { error: "not found" }, answer: "not-found" };
    }
    const t = openaiTurnIndex(body);
    const turn = script.turns[t];
    if (turn !== undefined && "fault" in turn) return faultReply(turn.fault);
    let items: unknown[];
    if (turn === undefined) items = [messageItem(script.final)];
    else if ("text" in turn) items = [messageItem(turn.text)];
    else items = issued.filter((c) => c.id.startsWith(`call_w${t}_`)).map(callItem);
    return {
      kind: "sse",
      chunks: [...items.map(itemDone), completed()],
      answer: turn === undefined ? "final" : `turn:${t}`,
    };
  };
}

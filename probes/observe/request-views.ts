// Reading captured request bodies per protocol: which text is system prompt, messages, tool definitions.
import type { MarkerLocation } from "../contracts/observation.js";
import type { ProbeCliName } from "../contracts/probe-spec.js";
import { isClassifierRequest } from "../fake/anthropic-messages.js";
import type { CapturedRequest } from "../fake/server.js";

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** A request body split into the parts a marker can be found in, as JSON text. */
export function bodySections(
  cli: ProbeCliName,
  body: unknown,
): Record<Exclude<MarkerLocation, "transcript">, string> {
  const b = record(body);
  if (cli === "claude-code") {
    return {
      system: JSON.stringify(b.system ?? ""),
      messages: JSON.stringify(b.messages ?? []),
      tools: JSON.stringify(b.tools ?? []),
    };
  }
  // Codex sends its system prompt as developer messages and its tools as an additional_tools item.
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

/** Requests that are agent turns (not Claude Code's security classifier, not stray paths). */
export function agentRequests(cli: ProbeCliName, requests: readonly CapturedRequest[]) {
  const route = cli === "claude-code" ? "/v1/messages" : "/v1/responses";
  return requests.filter(
    (r) =>
      r.path.split("?")[0] === route && !(cli === "claude-code" && isClassifierRequest(r.body)),
  );
}

/** Tool names one request offers. Codex: its namespaces' tools, plus `exec.<name>` for exec's nested tools. */
export function offeredTools(cli: ProbeCliName, body: unknown): string[] {
  const b = record(body);
  if (cli === "claude-code") {
    return list(b.tools)
      .map((t) => record(t).name)
      .filter((n): n is string => typeof n === "string");
  }
  const names: string[] = [];
  const visit = (tool: unknown) => {
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

/** The text of a tool result's content: a string, or text blocks joined. */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((c) => (typeof c === "string" ? c : record(c).text))
    .filter((t): t is string => typeof t === "string")
    .join("\n");
}

/** A tool call's result as the CLI sent it back to the model. */
export interface WireResult {
  isError: boolean;
  text: string;
}

/** Finds the result the CLI sent back for call `id` in any captured request. */
export function findWireResult(
  cli: ProbeCliName,
  requests: readonly CapturedRequest[],
  id: string,
): WireResult | null {
  for (const request of requests) {
    const b = record(request.body);
    if (cli === "claude-code") {
      for (const message of list(b.messages)) {
        for (const block of list(record(message).content)) {
          const r = record(block);
          if (r.type === "tool_result" && r.tool_use_id === id) {
            return { isError: r.is_error === true, text: resultText(r.content) };
          }
        }
      }
    } else {
      for (const item of list(b.input)) {
        const r = record(item);
        const isOutput = r.type === "custom_tool_call_output" || r.type === "function_call_output";
        if (isOutput && r.call_id === id) return { isError: false, text: resultText(r.output) };
      }
    }
  }
  return null;
}

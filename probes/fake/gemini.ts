// Fake Gemini API (Gemini CLI): plays a script as `streamGenerateContent` SSE, answers the side
// calls (`generateContent` for the model router and JSON checks, `countTokens`), and reads the
// requests: systemInstruction, contents, functionDeclarations and the functionResponse parts.
import type { Fault, Script } from "../contracts/script.js";
import type { CapturedRequest, IssuedCall, Reply } from "./server.js";
import {
  type BodySections,
  type CallNaming,
  HELPER_ANSWER,
  type HelperRecognizer,
  list,
  record,
  type WireProtocol,
  type WireResult,
} from "./wire.js";

/** `/v1beta/models/<model>:<method>`, the path every Gemini API call takes. */
const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/;
const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/** The model and method a path names, or null for any other path. */
export function geminiRoute(path: string): { model: string; method: string } | null {
  const match = ROUTE.exec(path.split("?")[0] ?? "");
  return match === null ? null : { model: match[1] ?? "", method: match[2] ?? "" };
}

/** True when a request asks for JSON output (the router, the next-speaker check…), not a turn. */
export function wantsJson(body: unknown): boolean {
  return record(record(body).generationConfig).responseMimeType === "application/json";
}

/**
 * A value shaped by a (JSON or OpenAPI-style) schema: the first enum value, numbers at their
 * minimum or 1 (Gemini CLI's router rejects a complexity score of 0), empty arrays, false.
 */
export function schemaShaped(schema: unknown): unknown {
  const s = record(schema);
  const enumValues = list(s.enum);
  if (enumValues.length > 0) return enumValues[0];
  const type = (Array.isArray(s.type) ? s.type[0] : s.type) as unknown;
  switch (typeof type === "string" ? type.toLowerCase() : "") {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(record(s.properties))) out[key] = schemaShaped(sub);
      return out;
    }
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? Math.max(s.minimum, 1) : 1;
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return "witness";
  }
}

/** Which scripted turn a request asks for: the `model` contents already in it. */
export function geminiTurnIndex(body: unknown): number {
  return list(record(body).contents).filter((c) => record(c).role === "model").length;
}

function candidate(parts: unknown[], finishReason: string | null): unknown {
  return {
    content: { role: "model", parts },
    ...(finishReason === null ? {} : { finishReason }),
    index: 0,
  };
}

function chunk(parts: unknown[], finishReason: string | null, model: string, turn: string) {
  const body = {
    candidates: [candidate(parts, finishReason)],
    ...(finishReason === null ? {} : { usageMetadata: USAGE }),
    modelVersion: model,
    responseId: `witness-${turn}`,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** A text reply in two chunks (so a client must join them), the second one finishing. */
function textChunks(text: string, model: string, turn: string): string[] {
  const cut = Math.ceil(text.length / 2);
  return [
    chunk([{ text: text.slice(0, cut) }], null, model, turn),
    chunk([{ text: text.slice(cut) }], "STOP", model, turn),
  ];
}

function faultReply(fault: Fault, model: string): Reply {
  if ("status" in fault) {
    const error = { code: fault.status, message: "witness scripted fault", status: "INTERNAL" };
    return {
      kind: "json",
      status: fault.status,
      body: { error },
      answer: `fault:status:${fault.status}`,
    };
  }
  if ("truncate" in fault) {
    // The head of a text reply, with no finishing chunk.
    const head = textChunks("truncated", model, "fault").slice(0, 1);
    return { kind: "truncate", chunks: head, answer: "fault:truncate" };
  }
  return { kind: "hang", answer: "fault:hang" };
}

/** Tool names one request offers: every functionDeclaration of every tool. */
function offeredTools(body: unknown): string[] {
  return list(record(body).tools).flatMap((tool) =>
    list(record(tool).functionDeclarations)
      .map((d) => record(d).name)
      .filter((n): n is string => typeof n === "string"),
  );
}

/**
 * The reply to one of the CLI's own calls (the router, a JSON check, countTokens): schema-shaped
 * JSON when JSON is asked for, a short text otherwise, recorded as a helper call.
 */
function helperReply(body: unknown, model: string, method: string): Reply {
  if (method === "countTokens") {
    const answer = `${HELPER_ANSWER}countTokens`;
    return { kind: "json", status: 200, body: { totalTokens: 10 }, answer };
  }
  const config = record(record(body).generationConfig);
  const json = wantsJson(body);
  const text = json
    ? JSON.stringify(schemaShaped(config.responseJsonSchema ?? config.responseSchema))
    : "witness";
  return {
    kind: "json",
    status: 200,
    body: {
      candidates: [candidate([{ text }], "STOP")],
      usageMetadata: USAGE,
      modelVersion: model,
    },
    answer: `${HELPER_ANSWER}${method}${json ? ":json" : ""}`,
  };
}

function responder(script: Script, naming: CallNaming, helpers?: HelperRecognizer) {
  return (path: string, body: unknown): Reply => {
    const route = geminiRoute(path);
    if (route === null)
      return { kind: "json", status: 404, body: { error: "not found" }, answer: "not-found" };
    if (route.method !== "streamGenerateContent" || wantsJson(body))
      return helperReply(body, route.model, route.method);
    const helper = helpers?.(body) ?? null;
    if (helper !== null) {
      const answer = `${HELPER_ANSWER}${helper.kind}`;
      return { kind: "sse", chunks: textChunks(helper.text, route.model, answer), answer };
    }
    const t = geminiTurnIndex(body);
    const turn = script.turns[t];
    if (turn !== undefined && "fault" in turn) return faultReply(turn.fault, route.model);
    if (turn === undefined || "text" in turn) {
      const text = turn === undefined ? script.final : turn.text;
      const answer = turn === undefined ? "final" : `turn:${t}`;
      return { kind: "sse", chunks: textChunks(text, route.model, answer), answer };
    }
    const tools = offeredTools(body);
    const issued: IssuedCall[] = turn.calls.map((call, k) => {
      const { name, input } = naming(call, tools);
      return { id: `call_w${t}_${k}`, turn: t, name, input };
    });
    const parts = issued.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.input } }));
    return {
      kind: "sse",
      chunks: [chunk(parts, "STOP", route.model, `turn:${t}`)],
      answer: `turn:${t}`,
      issued,
    };
  };
}

// Gemini CLI puts its system prompt and the global GEMINI.md in systemInstruction, and the
// project's GEMINI.md in the first user content: each section is searched separately.
function sections(body: unknown): BodySections {
  const b = record(body);
  return {
    system: JSON.stringify(b.systemInstruction ?? ""),
    messages: JSON.stringify(b.contents ?? []),
    tools: JSON.stringify(b.tools ?? []),
  };
}

/** A functionResponse's `response` as text: its output or error string, else its JSON. */
export function responseText(response: unknown): string {
  const r = record(response);
  for (const key of ["error", "output"] as const) if (typeof r[key] === "string") return r[key];
  return JSON.stringify(response ?? null);
}

function functionParts(requests: readonly CapturedRequest[], kind: string) {
  return requests.flatMap((request) =>
    list(record(request.body).contents).flatMap((c) =>
      list(record(c).parts)
        .map((p) => record(record(p)[kind]))
        .filter((p) => Object.keys(p).length > 0),
    ),
  );
}

// The CLI keeps the ids the fake sends (some versions prefix `<tool>__`); a version that made
// up its own would still echo its call in order, so the k-th call of the turn is the fallback.
function callIdOf(requests: readonly CapturedRequest[], id: string): string {
  const issuedIn = requests.find((r) => (r.issued ?? []).some((c) => c.id === id));
  if (issuedIn === undefined) return id;
  const k = (issuedIn.issued ?? []).findIndex((c) => c.id === id);
  const t = (issuedIn.issued ?? [])[k]?.turn ?? 0;
  for (const request of requests) {
    const models = list(record(request.body).contents).filter((c) => record(c).role === "model");
    const calls = list(record(models[t]).parts)
      .map((p) => record(record(p).functionCall))
      .filter((c) => typeof c.name === "string");
    const echoed = calls[k]?.id;
    if (typeof echoed === "string") return echoed;
  }
  return id;
}

function findResult(requests: readonly CapturedRequest[], id: string): WireResult | null {
  const responses = functionParts(requests, "functionResponse");
  const matches = (wanted: string) =>
    responses.find((r) => r.id === wanted || String(r.id).endsWith(`__${wanted}`));
  const found = matches(id) ?? matches(callIdOf(requests, id));
  if (found === undefined) return null;
  return { isError: "error" in record(found.response), text: responseText(found.response) };
}

/** The Gemini API as Gemini CLI speaks it: `POST /v1beta/models/<m>:streamGenerateContent?alt=sse`. */
export const geminiApi: WireProtocol = {
  name: "gemini",
  responder,
  isAgentRequest: (r) =>
    geminiRoute(r.path)?.method === "streamGenerateContent" && !wantsJson(r.body),
  sections,
  offeredTools,
  findResult,
};

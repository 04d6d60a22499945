// Qwen Code chat files (~/.qwen/projects/<cwd slug>/chats/<session id>.jsonl), typed for witness.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { type RecordedCall, statedExitCode } from "../clis/outcome.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, recordType, streamJsonl, tally } from "./jsonl-stream.js";
import { clip } from "./session-facts.js";

/** Record types Qwen Code 0.23–0.24 writes; anything else is kept as unknown. */
export const QWEN_KNOWN_TYPES: readonly string[] = ["user", "assistant", "tool_result", "system"];

/** A `tool_result` record's `toolCallResult`: how one call ended. */
const toolCallResultSchema = z.looseObject({
  callId: z.string(),
  status: z.string().optional(),
  /** `execution_denied`, `tool_not_registered`, `shell_execute_error`, … when it failed. */
  errorType: z.string().nullable().optional(),
  /** `success`, `error` or `not_started`. */
  executionStatus: z.string().optional(),
});

/** A `system` `ui_telemetry` record's `qwen-code.tool_call` event. */
const toolCallEventSchema = z.looseObject({
  "event.name": z.literal("qwen-code.tool_call"),
  call_id: z.string(),
  function_name: z.string().optional(),
  decision: z.string().nullable().optional(),
  execution_status: z.string().optional(),
  error_type: z.string().nullable().optional(),
});

/** How one tool call ended, as Qwen Code recorded it. */
export interface QwenToolCall {
  callId: string;
  /** Line of the call's `tool_result` record, else of its telemetry event. */
  line: number;
  name: string | null;
  status: string | null;
  errorType: string | null;
  executionStatus: string | null;
  /** The permission decision telemetry recorded (`auto_accept`, …), when it did. */
  decision: string | null;
  /** The call's arguments, as the telemetry event recorded them. */
  args: unknown;
  /** The start of the result the CLI sent back to the model (at most EXCERPT characters). */
  resultExcerpt: string;
  /** The exit code the shell tool's result states, or null. */
  exitCode: number | null;
}

/** What the chat recorded about a call, for the one classifier (clis/qwen/outcome.ts). */
export function qwenRecorded(call: QwenToolCall): RecordedCall {
  return {
    errorType: call.errorType,
    status: call.executionStatus,
    decision: call.decision,
    exitCode: call.exitCode,
  };
}

/** One Qwen Code chat file, as far as witness relies on it. */
export interface QwenChat {
  path: string;
  sessionId: string | null;
  /** The CLI version the records name. */
  version: string | null;
  /** The working directory the records name. */
  cwd: string | null;
  /** Every model an assistant record names, in first-seen order. */
  models: string[];
  /** The text of the last assistant record that has text. */
  finalText: string | null;
  toolCalls: QwenToolCall[];
  recordCounts: Record<string, number>;
  unknownRecords: { line: number; type: string | null }[];
  lineCount: number;
  /** Lines not (fully) read: not JSON, unknown types, records that do not fit. */
  drift: Drift;
  /** Marker values (given in the options) found anywhere in the file. */
  markersSeen: string[];
}

/** Reads a chat file: every record counted by type, tool calls from results and telemetry. */
export async function readQwenChat(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<QwenChat> {
  const counts: Record<string, number> = {};
  const unknown: QwenChat["unknownRecords"] = [];
  const drift = new DriftLog();
  const search = new MarkerSearch(options.markers ?? []);
  const calls = new Map<string, QwenToolCall>();
  let sessionId: string | null = null;
  let version: string | null = null;
  let cwd: string | null = null;
  const models: string[] = [];
  let finalText: string | null = null;
  const callOf = (id: string, line: number): QwenToolCall => {
    const found = calls.get(id);
    if (found !== undefined) return found;
    const fresh: QwenToolCall = {
      callId: id,
      line,
      name: null,
      status: null,
      errorType: null,
      executionStatus: null,
      decision: null,
      args: null,
      resultExcerpt: "",
      exitCode: null,
    };
    calls.set(id, fresh);
    return fresh;
  };
  const summary = await streamJsonl(
    path,
    ({ line, value }) => {
      const type = recordType(value);
      const r = value as Record<string, unknown>;
      if (type === null || !QWEN_KNOWN_TYPES.includes(type)) {
        tally(counts, type ?? "(no type)");
        unknown.push({ line, type });
        drift.noteUnknownType(line, type, value);
        return;
      }
      tally(counts, type === "system" ? `system:${String(r.subtype)}` : type);
      if (typeof r.sessionId === "string") sessionId ??= r.sessionId;
      if (typeof r.version === "string") version ??= r.version;
      if (typeof r.cwd === "string") cwd ??= r.cwd;
      if (type === "assistant") {
        if (typeof r.model === "string" && !models.includes(r.model)) models.push(r.model);
        const text = partsText(r.message);
        if (text !== "") finalText = clip(text, 2000);
      }
      if (type === "tool_result") {
        const parsed = toolCallResultSchema.safeParse(r.toolCallResult);
        if (!parsed.success) return drift.noteSchema(line, "tool_result", parsed.error);
        const call = callOf(parsed.data.callId, line);
        call.line = line;
        call.status = parsed.data.status ?? null;
        call.errorType = parsed.data.errorType ?? null;
        call.executionStatus = parsed.data.executionStatus ?? null;
        const text = responseText(r.message);
        call.resultExcerpt = clip(text);
        call.exitCode = statedExitCode(text);
      }
      if (type === "system" && r.subtype === "ui_telemetry") {
        const event = toolCallEventSchema.safeParse(
          (r.systemPayload as { uiEvent?: unknown })?.uiEvent,
        );
        if (!event.success) return; // other telemetry events (api_response …) are not tool calls
        const call = callOf(event.data.call_id, line);
        call.name = event.data.function_name ?? call.name;
        call.decision = event.data.decision ?? null;
        call.args = (event.data as { function_args?: unknown }).function_args ?? null;
      }
    },
    { drift, onText: (text) => search.scan(text) },
  );
  return {
    path,
    sessionId,
    version,
    cwd,
    models,
    finalText,
    toolCalls: [...calls.values()],
    recordCounts: counts,
    unknownRecords: unknown,
    lineCount: summary.lineCount,
    drift: drift.result(),
    markersSeen: search.seen(),
  };
}

type Part = {
  text?: unknown;
  functionResponse?: { response?: { output?: unknown; error?: unknown } };
};

function partsOf(message: unknown): Part[] {
  const parts = (message as { parts?: unknown } | null)?.parts;
  return Array.isArray(parts) ? (parts as Part[]) : [];
}

/** The text parts of a message, joined. */
function partsText(message: unknown): string {
  return partsOf(message)
    .map((p) => (typeof p.text === "string" ? p.text : ""))
    .join("");
}

/** What a tool result told the model: its output, else its error. */
function responseText(message: unknown): string {
  for (const part of partsOf(message)) {
    const response = part.functionResponse?.response;
    const text = response?.output ?? response?.error;
    if (typeof text === "string") return text;
  }
  return "";
}

/** Where Qwen Code keeps sessions: `$QWEN_RUNTIME_DIR`, `$QWEN_HOME`, else `$HOME/.qwen`. */
export function qwenRuntimeDir(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.QWEN_RUNTIME_DIR) return env.QWEN_RUNTIME_DIR;
  if (env.QWEN_HOME) return env.QWEN_HOME;
  return env.HOME ? join(env.HOME, ".qwen") : null;
}

/** The most recently modified chat under `<runtime dir>/projects/<slug>/chats/`. */
export async function newestQwenChat(runtimeDir: string): Promise<string | null> {
  const projects = join(runtimeDir, "projects");
  let best: { path: string; mtimeMs: number } | null = null;
  for (const slug of await readdir(projects).catch(() => [])) {
    const chats = join(projects, slug, "chats");
    for (const name of await readdir(chats).catch(() => [])) {
      if (!name.endsWith(".jsonl")) continue;
      const info = await stat(join(chats, name)).catch(() => null);
      if (info?.isFile() && (best === null || info.mtimeMs > best.mtimeMs))
        best = { path: join(chats, name), mtimeMs: info.mtimeMs };
    }
  }
  return best?.path ?? null;
}

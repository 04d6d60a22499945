// pi's session files (<agent dir>/sessions/--<cwd>--/<stamp>_<uuid>.jsonl), typed for witness.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import type { RecordedCall } from "../clis/outcome.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, recordType, streamJsonl, tally } from "./jsonl-stream.js";
import { configDirOf } from "./locate.js";

const headerSchema = z.looseObject({
  type: z.literal("session"),
  id: z.string(),
  version: z.number().optional(),
  cwd: z.string().optional(),
});
const modelChangeSchema = z.looseObject({ provider: z.string(), modelId: z.string() });
const contentSchema = z.array(z.looseObject({ type: z.string() }));
const messageSchema = z.looseObject({
  message: z.looseObject({ role: z.string(), content: z.union([z.string(), contentSchema]) }),
});
const toolCallBlockSchema = z.looseObject({
  type: z.literal("toolCall"),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
const toolResultSchema = z.looseObject({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string().optional(),
  content: contentSchema,
  isError: z.boolean().optional(),
});

/**
 * The line types pi writes (0.73; `custom_message` and `session_info` since 0.73 too, `usage` and
 * `context_edit` in 1.x's docs/session-format.md); any other is kept and counted as unknown.
 */
export const PI_KNOWN_TYPES = [
  "session",
  "model_change",
  "thinking_level_change",
  "message",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
  "usage",
  "context_edit",
];

/** A tool call the model made, as pi recorded it. */
export interface PiToolCall {
  line: number;
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The result pi sent back for a call, with its own error flag. */
export interface PiToolResult {
  line: number;
  toolCallId: string;
  toolName: string | null;
  isError: boolean;
  text: string;
}

/** What the session recorded about a call's result, for the one classifier (clis/pi/outcome.ts). */
export function piRecorded(result: PiToolResult | undefined): RecordedCall | null {
  return result === undefined ? null : { result: { isError: result.isError, text: result.text } };
}

/** One pi session, as far as witness relies on it. */
export interface PiSession {
  path: string;
  header: { id: string; cwd: string | null; version: number | null } | null;
  lineCount: number;
  recordCounts: Record<string, number>;
  unknownRecords: { line: number; type: string | null; value: unknown }[];
  models: { provider: string; modelId: string }[];
  /** Messages per role (`user`, `assistant`, `toolResult`). */
  roleCounts: Record<string, number>;
  toolCalls: PiToolCall[];
  toolResults: PiToolResult[];
  /** The last assistant message's text, or null when it had none. */
  finalText: string | null;
  /** Lines not (fully) read: not JSON, unknown types, records that do not fit. */
  drift: Drift;
  /** Marker values (given in the options) found anywhere in the file. */
  markersSeen: string[];
}

const textOf = (content: readonly { type: string; text?: unknown }[]) =>
  content
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text as string)
    .join("\n");

/** Reads a pi session JSONL file; what it cannot use is noted in `drift`, never thrown. */
export async function readPiSession(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<PiSession> {
  const drift = new DriftLog();
  const search = new MarkerSearch(options.markers ?? []);
  const session: PiSession = {
    path,
    header: null,
    lineCount: 0,
    recordCounts: {},
    unknownRecords: [],
    models: [],
    roleCounts: {},
    toolCalls: [],
    toolResults: [],
    finalText: null,
    drift: { counts: {}, items: [], omitted: 0 },
    markersSeen: [],
  };
  const fail = (line: number, what: string, error: z.ZodError): void =>
    drift.noteSchema(line, what, error);
  const summary = await streamJsonl(
    path,
    ({ line, value }) => {
      const type = recordType(value);
      tally(session.recordCounts, type ?? "(no type)");
      if (type === null || !PI_KNOWN_TYPES.includes(type)) {
        session.unknownRecords.push({ line, type, value });
        drift.noteUnknownType(line, type, value);
        return;
      }
      if (type === "session") {
        const header = headerSchema.safeParse(value);
        if (!header.success) return fail(line, "session", header.error);
        session.header ??= {
          id: header.data.id,
          cwd: header.data.cwd ?? null,
          version: header.data.version ?? null,
        };
      } else if (type === "model_change") {
        const change = modelChangeSchema.safeParse(value);
        if (!change.success) return fail(line, "model_change", change.error);
        session.models.push({ provider: change.data.provider, modelId: change.data.modelId });
      } else if (type === "message") {
        const parsed = messageSchema.safeParse(value);
        if (!parsed.success) return fail(line, "message", parsed.error);
        visitMessage(session, line, parsed.data.message, fail);
      }
    },
    { drift, onText: (text) => search.scan(text) },
  );
  session.lineCount = summary.lineCount;
  session.drift = drift.result();
  session.markersSeen = search.seen();
  return session;
}

function visitMessage(
  session: PiSession,
  line: number,
  message: z.infer<typeof messageSchema>["message"],
  fail: (line: number, what: string, error: z.ZodError) => void,
): void {
  tally(session.roleCounts, message.role);
  if (message.role === "assistant") {
    const text = typeof message.content === "string" ? message.content : textOf(message.content);
    session.finalText = text === "" ? null : text;
  }
  if (message.role === "assistant" && Array.isArray(message.content)) {
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const call = toolCallBlockSchema.safeParse(block);
      if (!call.success) return fail(line, "message/toolCall", call.error);
      session.toolCalls.push({
        line,
        id: call.data.id,
        name: call.data.name,
        arguments: call.data.arguments ?? {},
      });
    }
  } else if (message.role === "toolResult") {
    const result = toolResultSchema.safeParse(message);
    if (!result.success) return fail(line, "message/toolResult", result.error);
    session.toolResults.push({
      line,
      toolCallId: result.data.toolCallId,
      toolName: result.data.toolName ?? null,
      isError: result.data.isError === true,
      text: textOf(result.data.content),
    });
  }
}

/** pi's agent directory for an environment: PI_CODING_AGENT_DIR, else `~/.pi/agent`. */
export function piAgentDir(env: Readonly<Record<string, string | undefined>>): string | null {
  return configDirOf("pi", env);
}

/** The most recently modified session file under `<agentDir>/sessions`, or null when none. */
export async function newestPiSession(agentDir: string): Promise<string | null> {
  const root = join(agentDir, "sessions");
  let dirs: string[];
  try {
    dirs = await readdir(root);
  } catch {
    return null;
  }
  let best: { path: string; mtime: number } | null = null;
  for (const dir of dirs) {
    let files: string[];
    try {
      files = await readdir(join(root, dir));
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith(".jsonl"))) {
      const path = join(root, dir, file);
      const { mtimeMs } = await stat(path);
      if (best === null || mtimeMs > best.mtime) best = { path, mtime: mtimeMs };
    }
  }
  return best?.path ?? null;
}

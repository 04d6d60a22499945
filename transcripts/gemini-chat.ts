// Gemini CLI chat files (~/.gemini/tmp/<project>/chats/session-*.jsonl), typed for witness.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import type { RecordedCall } from "../clis/outcome.js";
import { type Drift, DriftLog, keysOf } from "./drift.js";
import { MarkerSearch, streamJsonl, tally } from "./jsonl-stream.js";

/** A message line: a user turn, a model (`gemini`) turn, or an info/error note. */
const messageSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  timestamp: z.string().optional(),
  content: z.unknown().optional(),
  model: z.string().optional(),
  toolCalls: z
    .array(
      z.looseObject({
        id: z.string(),
        name: z.string(),
        args: z.unknown().optional(),
        status: z.string().optional(),
        result: z.unknown().optional(),
      }),
    )
    .optional(),
});

/** The header line: the session's id and when it started. */
const headerSchema = z.looseObject({
  sessionId: z.string(),
  startTime: z.string().optional(),
  kind: z.string().optional(),
});

/** A tool call the CLI recorded on a model turn, with the status it ended in. */
export interface GeminiToolCall {
  /** The CLI's own id (it may prefix the model's id with `<tool>__`). */
  id: string;
  /** Line of the message record (or `$set` patch) that last wrote the call. */
  line: number;
  name: string;
  args: unknown;
  /** `success` or `error` (a shell command that exits non-zero is still `success`). */
  status: string | null;
  result: unknown;
}

/** One Gemini CLI chat file, as far as witness relies on it. */
export interface GeminiChat {
  path: string;
  sessionId: string | null;
  /** The last version of each message, in the order the messages first appeared. */
  messages: z.infer<typeof messageSchema>[];
  toolCalls: GeminiToolCall[];
  /** Lines by kind: header, `$set` patches, messages by type, unknown. */
  recordCounts: Record<string, number>;
  lineCount: number;
  /** Lines not (fully) read: not JSON, unknown kinds, messages that do not fit. */
  drift: Drift;
  /** Marker values (given in the options) found anywhere in the file. */
  markersSeen: string[];
}

function lineKind(value: unknown): "header" | "patch" | "message" | "unknown" {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "unknown";
  if ("$set" in value) return "patch";
  if ("sessionId" in value && !("type" in value)) return "header";
  return "type" in value && "id" in value ? "message" : "unknown";
}

/**
 * Reads a chat file. A message's id is written again when its tool calls finish, so the last
 * line per id wins; a `$set` of `messages` replaces the list. Unknown lines are counted, never
 * fatal.
 */
export async function readGeminiChat(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<GeminiChat> {
  const counts: Record<string, number> = {};
  const messages = new Map<string, z.infer<typeof messageSchema>>();
  const lines = new Map<string, number>();
  const drift = new DriftLog();
  const search = new MarkerSearch(options.markers ?? []);
  let sessionId: string | null = null;
  const summary = await streamJsonl(
    path,
    ({ line, value }) => {
      const kind = lineKind(value);
      const parsed =
        kind === "header"
          ? headerSchema.safeParse(value)
          : kind === "message"
            ? messageSchema.safeParse(value)
            : null;
      if (parsed !== null && !parsed.success) return drift.noteSchema(line, kind, parsed.error);
      if (kind === "unknown")
        drift.note(line, "unknown-record", "", `unknown line (keys: ${keysOf(value)})`);
      if (kind === "header" && parsed?.success)
        sessionId ??= (parsed.data as z.infer<typeof headerSchema>).sessionId;
      if (kind === "message" && parsed?.success) {
        const message = parsed.data as z.infer<typeof messageSchema>;
        tally(counts, `message:${message.type}`);
        messages.set(message.id, message);
        lines.set(message.id, line);
        return;
      }
      tally(counts, kind);
      // A patch that sets `messages` replaces the list (the CLI writes the first one that way).
      const set = kind === "patch" ? (value as { $set?: { messages?: unknown } }).$set : undefined;
      if (Array.isArray(set?.messages)) {
        messages.clear();
        for (const raw of set.messages as unknown[]) {
          const message = messageSchema.safeParse(raw);
          if (message.success) {
            messages.set(message.data.id, message.data);
            lines.set(message.data.id, line);
          } else drift.note(line, "missing-field", "patch", "a message without an id and a type");
        }
      }
    },
    { drift, onText: (text) => search.scan(text) },
  );
  const all = [...messages.values()];
  return {
    path,
    sessionId,
    messages: all,
    toolCalls: all.flatMap((m) =>
      (m.toolCalls ?? []).map((c) => ({
        id: c.id,
        line: lines.get(m.id) ?? 0,
        name: c.name,
        args: c.args ?? null,
        status: c.status ?? null,
        result: c.result ?? null,
      })),
    ),
    recordCounts: counts,
    lineCount: summary.lineCount,
    drift: drift.result(),
    markersSeen: search.seen(),
  };
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    return value.map((part) => textOf((part as { text?: unknown })?.text ?? part)).join("");
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

/** The text of a message's content or of a call's function response. */
export function geminiText(value: unknown): string {
  return textOf(value);
}

/** The text the CLI sent back for a call: its function response's output, else its error. */
export function geminiResultText(result: unknown): string {
  const first = Array.isArray(result) ? (result[0] as Record<string, unknown>) : null;
  const response = (first?.functionResponse as { response?: Record<string, unknown> })?.response;
  return textOf(response?.output ?? response?.error ?? "");
}

/** What the chat recorded about a call, for the one classifier (clis/gemini/outcome.ts). */
export function geminiRecorded(call: GeminiToolCall): RecordedCall {
  const text = geminiResultText(call.result);
  return {
    status: call.status,
    result: call.result === null ? null : { isError: call.status === "error", text },
  };
}

/** Gemini CLI's own home: `$GEMINI_CLI_HOME`, else `$HOME`; null without either. */
export function geminiHomeDir(env: Readonly<Record<string, string | undefined>>): string | null {
  return env.GEMINI_CLI_HOME || env.HOME || null;
}

/** The most recently modified chat file under `<home>/.gemini/tmp/<project>/chats/`. */
export async function newestGeminiChat(home: string): Promise<string | null> {
  const tmp = join(home, ".gemini", "tmp");
  let best: { path: string; mtimeMs: number } | null = null;
  for (const project of await readdir(tmp).catch(() => [])) {
    const chats = join(tmp, project, "chats");
    for (const name of await readdir(chats).catch(() => [])) {
      if (!name.startsWith("session-") || !name.endsWith(".jsonl")) continue;
      const info = await stat(join(chats, name)).catch(() => null);
      if (info?.isFile() && (best === null || info.mtimeMs > best.mtimeMs))
        best = { path: join(chats, name), mtimeMs: info.mtimeMs };
    }
  }
  return best?.path ?? null;
}

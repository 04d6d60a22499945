// Cline 3.x sessions ($CLINE_DIR/data/sessions/<id>/<id>.messages.json): one JSON document holding
// the system prompt and Anthropic-shaped messages, each tool_use joined to its tool_result.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { resolveDir } from "../clis/facts.js";
import { factsOf } from "../clis/facts-by-cli.js";
import type { RecordedCall } from "../clis/outcome.js";
import { type Drift, DriftLog } from "./drift.js";

const blockSchema = z.looseObject({ type: z.string() });
const messageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(blockSchema)]),
  modelInfo: z.looseObject({ id: z.string().optional() }).optional(),
});
const documentSchema = z.looseObject({
  sessionId: z.string().optional(),
  messages: z.array(z.unknown()),
  system_prompt: z.string().optional(),
});

/** One tool call, as the session recorded it. */
export interface ClineToolCall {
  /** 1-based index of the message that asked for it. */
  line: number;
  id: string;
  name: string;
  input: unknown;
  /** The result's content as text (an array of command results is kept as its JSON). */
  text: string | null;
  isError: boolean;
}

/** One Cline session, as far as witness relies on it. */
export interface ClineSession {
  path: string;
  sessionId: string | null;
  models: string[];
  /** The mode each user turn was stored under (`<user_input mode="act|plan|yolo">`). */
  modes: string[];
  finalText: string | null;
  toolCalls: ClineToolCall[];
  /** How many messages the document holds (its "lines": a call's line is its message's index). */
  messageCount: number;
  drift: Drift;
  markersSeen: string[];
}

/** What the session recorded about a call, for the one classifier (clis/cline/outcome.ts). */
export function clineRecorded(call: ClineToolCall): RecordedCall {
  return { result: call.text === null ? null : { isError: call.isError, text: call.text } };
}

const asText = (content: unknown): string =>
  typeof content === "string" ? content : JSON.stringify(content);

/** Reads a messages.json file; what it cannot use is noted in `drift`, never thrown. */
export async function readClineSession(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<ClineSession> {
  const drift = new DriftLog();
  const text = await readFile(path, "utf8");
  const session: ClineSession = {
    path,
    sessionId: null,
    models: [],
    modes: [],
    finalText: null,
    toolCalls: [],
    messageCount: 0,
    drift: { counts: {}, items: [], omitted: 0 },
    markersSeen: (options.markers ?? []).filter((m) => text.includes(m)),
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    drift.note(1, "not-json", "", error instanceof Error ? error.message : String(error));
    session.drift = drift.result();
    return session;
  }
  const doc = documentSchema.safeParse(value);
  if (!doc.success) {
    drift.noteSchema(1, "session", doc.error);
    session.drift = drift.result();
    return session;
  }
  session.sessionId = doc.data.sessionId ?? null;
  session.messageCount = doc.data.messages.length;
  const calls = new Map<string, ClineToolCall>();
  doc.data.messages.forEach((raw, index) => {
    const line = index + 1;
    const message = messageSchema.safeParse(raw);
    if (!message.success) return drift.noteSchema(line, "message", message.error);
    const model = message.data.modelInfo?.id;
    if (model !== undefined && !session.models.includes(model)) session.models.push(model);
    const blocks =
      typeof message.data.content === "string"
        ? [{ type: "text", text: message.data.content }]
        : message.data.content;
    for (const block of blocks) visit(session, calls, message.data.role, line, block, drift);
  });
  session.toolCalls = [...calls.values()];
  session.drift = drift.result();
  return session;
}

function visit(
  session: ClineSession,
  calls: Map<string, ClineToolCall>,
  role: string,
  line: number,
  block: Record<string, unknown>,
  drift: DriftLog,
): void {
  if (block.type === "text" && typeof block.text === "string") {
    const mode = /^<user_input mode="([^"]+)">/.exec(block.text);
    if (role === "user" && mode?.[1] !== undefined) session.modes.push(mode[1]);
    if (role === "assistant" && block.text !== "") session.finalText = block.text;
  } else if (block.type === "tool_use") {
    const { id, name } = block;
    if (typeof id !== "string" || typeof name !== "string")
      return drift.note(
        line,
        "missing-field",
        "tool_use",
        "a tool_use without a string id or name",
      );
    calls.set(id, { line, id, name, input: block.input, text: null, isError: false });
  } else if (block.type === "tool_result") {
    const call = calls.get(typeof block.tool_use_id === "string" ? block.tool_use_id : "");
    if (call === undefined)
      return drift.note(line, "missing-field", "tool_result", "a result for no recorded call");
    call.text = asText(block.content);
    call.isError = block.is_error === true;
  } else if (block.type !== "text" && block.type !== "thinking") {
    drift.note(line, "unknown-payload", `block/${String(block.type)}`, "unknown content block");
  }
}

/** Cline's sessions directory for an environment, as its facts resolve it. */
export function clineSessionsDir(env: Readonly<Record<string, string | undefined>>): string | null {
  const rule = factsOf("cline").sessions;
  return rule === null ? null : resolveDir(rule, env);
}

/** True for a name Cline gives a session document (`<id>.messages.json`; a fixture's `messages.json`). */
export function isClineSessionName(name: string): boolean {
  return name === "messages.json" || name.endsWith(".messages.json");
}

/** The newest `<id>/<id>.messages.json` under a sessions directory, or null when none. */
export async function newestClineSession(root: string): Promise<string | null> {
  const ids = await readdir(root).catch(() => [] as string[]);
  let best: { path: string; mtime: number } | null = null;
  for (const id of ids) {
    const path = join(root, id, `${id}.messages.json`);
    const mtime = await stat(path).then(
      (s) => s.mtimeMs,
      () => null,
    );
    if (mtime !== null && (best === null || mtime > best.mtime)) best = { path, mtime };
  }
  return best?.path ?? null;
}

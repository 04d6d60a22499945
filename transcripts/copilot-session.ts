// GitHub Copilot CLI sessions ($COPILOT_HOME/session-state/<session id>/events.jsonl), typed for
// witness: every event counted by type, each tool call with its start, its permission decision
// (when one was asked for) and how its execution completed.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import type { RecordedCall } from "../clis/outcome.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, recordType, streamJsonl, tally } from "./jsonl-stream.js";
import { configDirOf } from "./locate.js";

/** Event types 1.0.60 – 1.0.102 write; any other is counted as drift, never fatal. */
export const COPILOT_KNOWN_TYPES: readonly string[] = [
  "session.start",
  "session.model_change",
  "session.usage_record",
  "session.permissions_changed",
  "session.shutdown",
  "session.info",
  "session.error",
  "system.message",
  "user.message",
  "assistant.turn_start",
  "assistant.turn_end",
  "assistant.message",
  "tool.execution_start",
  "tool.execution_complete",
  "permission.requested",
  "permission.completed",
  "hook.start",
  "hook.end",
];

const startSchema = z.looseObject({
  sessionId: z.string(),
  copilotVersion: z.string().optional(),
  selectedModel: z.string().nullable().optional(),
  context: z.looseObject({ cwd: z.string().optional() }).optional(),
});
const messageSchema = z.looseObject({
  content: z.string().optional(),
  model: z.string().optional(),
  toolRequests: z
    .array(z.looseObject({ toolCallId: z.string(), name: z.string(), arguments: z.unknown() }))
    .optional(),
});
const completeSchema = z.looseObject({
  toolCallId: z.string(),
  success: z.boolean(),
  result: z.looseObject({ content: z.string().optional() }).optional(),
  error: z.looseObject({ message: z.string().optional(), code: z.string().optional() }).optional(),
  shellExecution: z.looseObject({ exitCode: z.number().nullable().optional() }).optional(),
});
const permissionSchema = z.looseObject({
  toolCallId: z.string().optional(),
  result: z.looseObject({ kind: z.string() }),
});

/** One tool call, as the session recorded it. */
export interface CopilotToolCall {
  line: number;
  id: string;
  name: string;
  arguments: unknown;
  /** `tool.execution_complete`'s `success`; null when the call never completed. */
  success: boolean | null;
  /** Its `error.code` (`denied`), when it failed. */
  errorCode: string | null;
  /** The permission decision (`denied-no-approval-rule-and-could-not-request-from-user`, …). */
  decision: string | null;
  /** The shell's exit code where the session states it apart from the text (1.0.102). */
  exitCode: number | null;
  /** The result's content, or the error's message. */
  text: string;
}

/** What the session recorded about a call, for the one classifier (clis/copilot/outcome.ts). */
export function copilotRecorded(call: CopilotToolCall): RecordedCall {
  return {
    decision: call.decision,
    errorType: call.errorCode,
    status: call.success === null ? null : call.success ? "success" : "failure",
    exitCode: call.exitCode,
    result: call.success === null ? null : { isError: !call.success, text: call.text },
  };
}

/** One Copilot session file, as far as witness relies on it. */
export interface CopilotSession {
  path: string;
  sessionId: string | null;
  version: string | null;
  cwd: string | null;
  models: string[];
  /** The last assistant message's text (non-empty). */
  finalText: string | null;
  /** The permission mode a `session.permissions_changed` event set (1.0.102 `--yolo`: `on`). */
  permissionModes: string[];
  toolCalls: CopilotToolCall[];
  recordCounts: Record<string, number>;
  lineCount: number;
  drift: Drift;
  markersSeen: string[];
}

/** Reads an events.jsonl file; what it cannot use is noted in `drift`, never thrown. */
export async function readCopilotSession(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<CopilotSession> {
  const drift = new DriftLog();
  const search = new MarkerSearch(options.markers ?? []);
  const session: CopilotSession = {
    path,
    sessionId: null,
    version: null,
    cwd: null,
    models: [],
    finalText: null,
    permissionModes: [],
    toolCalls: [],
    recordCounts: {},
    lineCount: 0,
    drift: { counts: {}, items: [], omitted: 0 },
    markersSeen: [],
  };
  const calls = new Map<string, CopilotToolCall>();
  const summary = await streamJsonl(
    path,
    ({ line, value }) => {
      const type = recordType(value);
      tally(session.recordCounts, type ?? "(no type)");
      if (type === null || !COPILOT_KNOWN_TYPES.includes(type))
        return drift.noteUnknownType(line, type, value);
      const data = (value as { data?: unknown }).data ?? {};
      visit(session, calls, type, line, data, drift);
    },
    { drift, onText: (text) => search.scan(text) },
  );
  session.toolCalls = [...calls.values()];
  session.lineCount = summary.lineCount;
  session.drift = drift.result();
  session.markersSeen = search.seen();
  return session;
}

function visit(
  session: CopilotSession,
  calls: Map<string, CopilotToolCall>,
  type: string,
  line: number,
  data: unknown,
  drift: DriftLog,
): void {
  if (type === "session.start") {
    const start = startSchema.safeParse(data);
    if (!start.success) return drift.noteSchema(line, type, start.error);
    session.sessionId ??= start.data.sessionId;
    session.version ??= start.data.copilotVersion ?? null;
    session.cwd ??= start.data.context?.cwd ?? null;
    const model = start.data.selectedModel;
    if (model && !session.models.includes(model)) session.models.push(model);
  } else if (type === "session.permissions_changed") {
    const mode = (data as { allowAllPermissionMode?: unknown }).allowAllPermissionMode;
    if (typeof mode === "string") session.permissionModes.push(mode);
  } else if (type === "assistant.message") {
    const message = messageSchema.safeParse(data);
    if (!message.success) return drift.noteSchema(line, type, message.error);
    const model = message.data.model;
    if (model && !session.models.includes(model)) session.models.push(model);
    if (message.data.content) session.finalText = message.data.content;
    for (const request of message.data.toolRequests ?? []) {
      calls.set(request.toolCallId, {
        line,
        id: request.toolCallId,
        name: request.name,
        arguments: request.arguments,
        success: null,
        errorCode: null,
        decision: null,
        exitCode: null,
        text: "",
      });
    }
  } else if (type === "permission.completed") {
    const permission = permissionSchema.safeParse(data);
    if (!permission.success) return drift.noteSchema(line, type, permission.error);
    const call = calls.get(permission.data.toolCallId ?? "");
    if (call !== undefined) call.decision = permission.data.result.kind;
  } else if (type === "tool.execution_complete") {
    const complete = completeSchema.safeParse(data);
    if (!complete.success) return drift.noteSchema(line, type, complete.error);
    const call = calls.get(complete.data.toolCallId);
    if (call === undefined) return;
    call.success = complete.data.success;
    call.errorCode = complete.data.error?.code ?? null;
    call.exitCode = complete.data.shellExecution?.exitCode ?? null;
    call.text = complete.data.result?.content ?? complete.data.error?.message ?? "";
  }
}

/** Copilot's home for an environment: `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHomeDir(env: Readonly<Record<string, string | undefined>>): string | null {
  return configDirOf("copilot", env);
}

/** The newest `session-state/<id>/events.jsonl` under a Copilot home, or null when none. */
export async function newestCopilotSession(home: string): Promise<string | null> {
  const root = join(home, "session-state");
  const ids = await readdir(root).catch(() => [] as string[]);
  let best: { path: string; mtime: number } | null = null;
  for (const id of ids) {
    const path = join(root, id, "events.jsonl");
    const mtime = await stat(path).then(
      (s) => s.mtimeMs,
      () => null,
    );
    if (mtime !== null && (best === null || mtime > best.mtime)) best = { path, mtime };
  }
  return best?.path ?? null;
}

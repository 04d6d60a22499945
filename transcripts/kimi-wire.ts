// Kimi Code sessions ($KIMI_CODE_HOME/sessions/<workDirKey>/session_<uuid>/agents/main/wire.jsonl),
// typed for witness: every record counted by type, each tool call joined to its result, the
// permission modes it set and the model each request named (0.20.0 protocol 1.4, 2.1.0 1.5).
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import type { RecordedCall } from "../clis/outcome.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, recordType, streamJsonl, tally } from "./jsonl-stream.js";
import { configDirOf } from "./locate.js";

/** Record types 0.20.0 and 2.1.0 write; any other is counted as drift, never fatal. */
export const KIMI_KNOWN_TYPES: readonly string[] = [
  "metadata",
  "runtime.set_binding",
  "profile.bind",
  "config.update",
  "tools.set_active_tools",
  "permission.set_mode",
  "turn.prompt",
  "context.append_message",
  "context.append_loop_event",
  "agent.message.appended",
  "agent.turn.started",
  "agent.turn.ended",
  "plugin.session_start",
  "llm.tools_snapshot",
  "llm.request",
  "usage.record",
  "token_counting.measured",
  "token_counting.turn_recorded",
  "file_history.checkpoint",
  "file_history.tracked",
  "turn.ended",
  "turn.step.interrupted",
  "turn.step.retrying",
  "prompt.completed",
];

const loopEventSchema = z.looseObject({
  event: z.looseObject({
    type: z.string(),
    toolCallId: z.string().optional(),
    name: z.string().optional(),
    args: z.unknown().optional(),
    result: z.looseObject({ output: z.unknown(), isError: z.boolean().optional() }).optional(),
    part: z.looseObject({ type: z.string(), text: z.string().optional() }).optional(),
  }),
});

/** One tool call, as the session recorded it. */
export interface KimiToolCall {
  line: number;
  id: string;
  name: string;
  args: unknown;
  /** Null when no result was recorded. */
  isError: boolean | null;
  text: string;
}

/** What the session recorded about a call, for the one classifier (clis/kimi/outcome.ts). */
export function kimiRecorded(call: KimiToolCall): RecordedCall {
  return {
    status: call.isError === null ? null : call.isError ? "error" : "completed",
    result: call.isError === null ? null : { isError: call.isError, text: call.text },
  };
}

/** One wire.jsonl file, as far as witness relies on it. */
export interface KimiSession {
  path: string;
  protocolVersion: string | null;
  models: string[];
  permissionModes: string[];
  finalText: string | null;
  toolCalls: KimiToolCall[];
  recordCounts: Record<string, number>;
  lineCount: number;
  drift: Drift;
  markersSeen: string[];
}

function textOf(output: unknown): string {
  if (typeof output === "string") return output;
  return JSON.stringify(output) ?? "";
}

/** Reads a wire.jsonl file; what it cannot use is noted in `drift`, never thrown. */
export async function readKimiWire(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<KimiSession> {
  const drift = new DriftLog();
  const search = new MarkerSearch(options.markers ?? []);
  const session: KimiSession = {
    path,
    protocolVersion: null,
    models: [],
    permissionModes: [],
    finalText: null,
    toolCalls: [],
    recordCounts: {},
    lineCount: 0,
    drift: { counts: {}, items: [], omitted: 0 },
    markersSeen: [],
  };
  const calls = new Map<string, KimiToolCall>();
  const summary = await streamJsonl(
    path,
    ({ line, value }) => {
      const type = recordType(value);
      tally(session.recordCounts, type ?? "(no type)");
      if (type === null || !KIMI_KNOWN_TYPES.includes(type))
        return drift.noteUnknownType(line, type, value);
      const record = value as Record<string, unknown>;
      if (type === "metadata" && typeof record.protocol_version === "string")
        session.protocolVersion = record.protocol_version;
      else if (type === "permission.set_mode" && typeof record.mode === "string")
        session.permissionModes.push(record.mode);
      else if (type === "llm.request" && typeof record.model === "string") {
        if (!session.models.includes(record.model)) session.models.push(record.model);
      } else if (type === "context.append_loop_event") {
        const parsed = loopEventSchema.safeParse(value);
        if (!parsed.success) return drift.noteSchema(line, type, parsed.error);
        visit(parsed.data.event, line, calls, session);
      }
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
  event: z.infer<typeof loopEventSchema>["event"],
  line: number,
  calls: Map<string, KimiToolCall>,
  session: KimiSession,
): void {
  if (event.type === "tool.call" && event.toolCallId !== undefined) {
    calls.set(event.toolCallId, {
      line,
      id: event.toolCallId,
      name: event.name ?? "",
      args: event.args ?? null,
      isError: null,
      text: "",
    });
  } else if (event.type === "tool.result" && event.toolCallId !== undefined) {
    const call = calls.get(event.toolCallId);
    if (call === undefined || event.result === undefined) return;
    call.isError = event.result.isError === true;
    call.text = textOf(event.result.output);
  } else if (event.type === "content.part" && event.part?.type === "text" && event.part.text) {
    session.finalText = event.part.text;
  }
}

/** Kimi's home for an environment: `$KIMI_CODE_HOME`, else `~/.kimi-code`. */
export function kimiHomeDir(env: Readonly<Record<string, string | undefined>>): string | null {
  return configDirOf("kimi", env);
}

/**
 * The session a run wrote: the one whose id Kimi printed (`kimi -r session_<uuid>` on stderr), else
 * the newest; its main agent's wire.jsonl, or null. (The session index names absolute paths as the
 * CLI saw them, which need not be the host's, so the directories are scanned instead.)
 */
export async function kimiSessionFile(home: string, printed: string): Promise<string | null> {
  const id = /\bkimi -r (session_[\w-]+)/.exec(printed)?.[1] ?? null;
  const root = join(home, "sessions");
  let best: { path: string; mtime: number } | null = null;
  for (const bucket of await readdir(root).catch(() => [] as string[]))
    for (const name of await readdir(join(root, bucket)).catch(() => [] as string[])) {
      if (!name.startsWith("session_") || (id !== null && name !== id)) continue;
      const path = join(root, bucket, name, "agents", "main", "wire.jsonl");
      const mtime = await stat(path).then(
        (s) => s.mtimeMs,
        () => null,
      );
      if (mtime !== null && (best === null || mtime > best.mtime)) best = { path, mtime };
    }
  return best?.path ?? null;
}

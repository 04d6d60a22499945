// opencode's sessions ($XDG_DATA_HOME/opencode/opencode.db, SQLite in WAL mode), typed for witness;
// Kilo's ($XDG_DATA_HOME/kilo/kilo.db) have the same tables and rows.
// Read with node-sqlite3-wasm (WebAssembly: no native build, no network at install) from a
// private copy of the database and its -wal file, in exclusive locking mode: opencode exits
// without checkpointing, so a run's rows are usually only in the -wal, and exclusive mode lets
// SQLite read it without the shared-memory index a WebAssembly build cannot map.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

import { resolveDir } from "../clis/facts.js";
import { factsOf } from "../clis/facts-by-cli.js";
import { OPENCODE_WORDING } from "../clis/opencode/outcome.js";
import type { RecordedCall } from "../clis/outcome.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, tally } from "./jsonl-stream.js";
import {
  OPENCODE_KNOWN_PARTS,
  opencodeDataRowSchema,
  opencodeMessageSchema,
  opencodePartRowSchema,
  opencodePartSchema,
  opencodeSessionRowSchema,
  opencodeToolPartSchema,
} from "./opencode-records.js";

/** One session row. */
export interface OpencodeSessionInfo {
  id: string;
  directory: string;
  title: string;
  version: string;
  agent: string | null;
  /** The session's permission rules as written (JSON), null when none. */
  permission: unknown;
  model: unknown;
}

/** One tool call as opencode recorded it. */
export interface OpencodeToolCall {
  sessionId: string;
  callId: string;
  tool: string;
  /** `completed`, `error`, `running`, `pending`. */
  status: string;
  input: Record<string, unknown>;
  output: string | null;
  error: string | null;
  /** A shell command's exit code (`state.metadata.exit`). */
  exit: number | null;
}

/**
 * What the database recorded about a call, for the one classifier (clis/opencode/outcome.ts): an
 * error in the auto-reject's words is the CLI's decision; a shell command's exit code is only in
 * the part's metadata, never in the text sent back.
 */
export function opencodeRecorded(call: OpencodeToolCall): RecordedCall {
  const failed = call.status === "error" || (call.exit !== null && call.exit !== 0);
  return {
    decision: call.error !== null && OPENCODE_WORDING.rejected.test(call.error) ? "reject" : null,
    status: call.status,
    exitCode: call.exit,
    result: { isError: failed, text: call.output ?? call.error ?? "" },
  };
}

/** What witness reads from one opencode database. */
export interface OpencodeDb {
  path: string;
  sessions: OpencodeSessionInfo[];
  messageCount: number;
  /** Messages per role. */
  roleCounts: Record<string, number>;
  /** Parts per type, known and unknown. */
  partCounts: Record<string, number>;
  unknownParts: { id: string; type: string }[];
  toolCalls: OpencodeToolCall[];
  /** The last text part of an assistant message, or null when there is none. */
  finalText: string | null;
  /** Rows that did not fit: `line` is the row's 1-based position, the subject its table. */
  drift: Drift;
  /** Marker values (given in the options) found in any session, message or part row. */
  markersSeen: string[];
}

/**
 * Where opencode keeps its database for an environment: OPENCODE_DB, else the XDG data home; for
 * Kilo (an opencode fork with the same schema), its own file under the XDG data home.
 */
export function opencodeDbPath(
  env: Readonly<Record<string, string | undefined>>,
  cli: "opencode" | "kilo" = "opencode",
): string | null {
  const rule = factsOf(cli).sessions;
  return rule === null ? null : resolveDir(rule, env);
}

type Sqlite = typeof import("node-sqlite3-wasm");

async function loadSqlite(): Promise<Sqlite> {
  // A CommonJS package: its classes are on the default export.
  const mod = (await import("node-sqlite3-wasm")) as unknown as { default: Sqlite };
  return mod.default;
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Reads an opencode database (and its -wal) without touching the original: the files are
 * copied first. A missing database rejects; a row that does not fit is reported in `broken`.
 */
export async function readOpencodeDb(
  path: string,
  options: { markers?: readonly string[] } = {},
): Promise<OpencodeDb> {
  const dir = await mkdtemp(join(tmpdir(), "witness-opencode-db-"));
  const copy = join(dir, basename(path));
  try {
    await copyFile(path, copy);
    await copyFile(`${path}-wal`, `${copy}-wal`).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    });
    const { Database } = await loadSqlite();
    const db = new Database(copy, { fileMustExist: true });
    try {
      db.exec("PRAGMA locking_mode=EXCLUSIVE");
      return collect(path, options.markers ?? [], {
        sessions: db.all(
          // Every column: Kilo 7.0.33's table has neither agent nor model.
          "SELECT * FROM session ORDER BY time_created, id",
        ),
        messages: db.all("SELECT id, session_id, data FROM message ORDER BY time_created, id"),
        parts: db.all(
          "SELECT id, session_id, message_id, data FROM part ORDER BY session_id, message_id, id",
        ),
      });
    } finally {
      db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Rows {
  sessions: unknown[];
  messages: unknown[];
  parts: unknown[];
}

/** Turns the selected rows into an OpencodeDb (pure: tests feed it rows by hand). */
export function collect(path: string, markers: readonly string[], rows: Rows): OpencodeDb {
  const drift = new DriftLog();
  const search = new MarkerSearch(markers);
  const out: OpencodeDb = {
    path,
    sessions: [],
    messageCount: 0,
    roleCounts: {},
    partCounts: {},
    unknownParts: [],
    toolCalls: [],
    finalText: null,
    drift: { counts: {}, items: [], omitted: 0 },
    markersSeen: [],
  };
  const roleOf = new Map<string, string>();
  rows.sessions.forEach((value, i) => {
    const row = opencodeSessionRowSchema.safeParse(value);
    if (!row.success) return drift.noteSchema(i + 1, "session", row.error);
    search.scan(JSON.stringify(row.data));
    out.sessions.push({
      id: row.data.id,
      directory: row.data.directory,
      title: row.data.title,
      version: row.data.version,
      agent: row.data.agent ?? null,
      permission: parseJson(row.data.permission),
      model: parseJson(row.data.model ?? null),
    });
  });
  // Where the session row names no model (Kilo 7.0.33), its last assistant message does.
  const messageModel = new Map<string, { id: string; providerID: string }>();
  rows.messages.forEach((value, i) => {
    const row = opencodeDataRowSchema.safeParse(value);
    if (!row.success) return drift.noteSchema(i + 1, "message", row.error);
    search.scan(row.data.data);
    const message = opencodeMessageSchema.safeParse(parseJson(row.data.data));
    if (!message.success) return drift.noteSchema(i + 1, "message", message.error);
    out.messageCount += 1;
    const { providerID, modelID } = message.data;
    if (providerID !== undefined && modelID !== undefined)
      messageModel.set(row.data.session_id, { id: modelID, providerID });
    roleOf.set(row.data.id, message.data.role);
    tally(out.roleCounts, message.data.role);
  });
  for (const session of out.sessions)
    if (session.model === null) session.model = messageModel.get(session.id) ?? null;
  rows.parts.forEach((value, i) => {
    const row = opencodePartRowSchema.safeParse(value);
    if (!row.success) return drift.noteSchema(i + 1, "part", row.error);
    search.scan(row.data.data);
    const data = parseJson(row.data.data);
    const part = opencodePartSchema.safeParse(data);
    if (!part.success) return drift.noteSchema(i + 1, "part", part.error);
    tally(out.partCounts, part.data.type);
    if (!OPENCODE_KNOWN_PARTS.includes(part.data.type)) {
      out.unknownParts.push({ id: row.data.id, type: part.data.type });
      drift.note(i + 1, "unknown-payload", `part/${part.data.type}`, `unknown part type`);
      return;
    }
    const text = (part.data as { text?: unknown }).text;
    if (
      part.data.type === "text" &&
      typeof text === "string" &&
      roleOf.get(row.data.message_id) === "assistant"
    )
      out.finalText = text;
    if (part.data.type !== "tool") return;
    const tool = opencodeToolPartSchema.safeParse(data);
    if (!tool.success) return drift.noteSchema(i + 1, "part/tool", tool.error);
    const { state } = tool.data;
    out.toolCalls.push({
      sessionId: row.data.session_id,
      callId: tool.data.callID,
      tool: tool.data.tool,
      status: state.status,
      input: state.input ?? {},
      output: state.output ?? null,
      error: state.error ?? null,
      exit: state.metadata?.exit ?? null,
    });
  });
  out.drift = drift.result();
  out.markersSeen = search.seen();
  return out;
}

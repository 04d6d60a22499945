// `witness transcript <file|dir>`: find the session a path names, tell which CLI wrote it, read it.
import { open, readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";

import type { TranscriptCliName } from "../clis/names.js";
import { InputError } from "../core/errors.js";
import { unreadableFile } from "../core/read-input.js";
import { geminiReport, opencodeReport, piReport, qwenReport } from "./chat-reports.js";
import { CLAUDE_KNOWN_TYPES } from "./claude-records.js";
import { readClaudeSession } from "./claude-session.js";
import { clineReport } from "./cline-report.js";
import { isClineSessionName, readClineSession } from "./cline-session.js";
import { CODEX_KNOWN_TYPES } from "./codex-records.js";
import { readCodexRollout } from "./codex-rollout.js";
import { copilotReport } from "./copilot-report.js";
import { COPILOT_KNOWN_TYPES, readCopilotSession } from "./copilot-session.js";
import { keysOf } from "./drift.js";
import { readGeminiChat } from "./gemini-chat.js";
import { kimiReport } from "./kimi-report.js";
import { readKimiWire } from "./kimi-wire.js";
import { claudeSidechains, isClaudeSidechainName } from "./locate.js";
import { readOpencodeDb } from "./opencode-session.js";
import { fileStart } from "./peek.js";
import { readPiSession } from "./pi-session.js";
import { readQwenChat } from "./qwen-chat.js";
import { claudeReport, codexReport, type SessionReport } from "./session-report.js";

/** The CLI a transcript file comes from, from its first records. */
export type TranscriptKind = TranscriptCliName;

/** What the start of a file says it is: a kind, or why it is not a transcript. */
export type Sniffed = { kind: TranscriptKind; sidechain: boolean } | { kind: null; why: string };

/** Tells which CLI wrote a session file by its first records; anything else says why not. */
export async function sniffTranscript(path: string): Promise<Sniffed> {
  // Kilo keeps opencode's schema under its own file name (kilo.db), which is how the two differ.
  if (await isSqlite(path))
    return { kind: /^kilo\.db$/.test(basename(path)) ? "kilo" : "opencode", sidechain: false };
  // Cline 3.x keeps a session as one JSON document, not JSONL: its name says so, its body agrees.
  if (isClineSessionName(basename(path))) return sniffClineDocument(path);
  const start = await fileStart(path);
  if (start.empty) return { kind: null, why: "empty: the file holds no record" };
  for (const { value } of start.records) {
    const record = (typeof value === "object" && value !== null ? value : {}) as Record<
      string,
      unknown
    >;
    const type = typeof record.type === "string" ? record.type : null;
    // Copilot's events: a dotted type, its fields under `data`, ids chained by `parentId`.
    if (type !== null && COPILOT_KNOWN_TYPES.includes(type) && "data" in record)
      return { kind: "copilot", sidechain: false };
    // Kimi's wire file opens with its protocol version.
    if (type === "metadata" && typeof record.protocol_version === "string")
      return { kind: "kimi", sidechain: false };
    if (type === "session" && typeof record.id === "string" && !("payload" in record))
      return { kind: "pi", sidechain: false };
    if (type === null && typeof record.sessionId === "string" && "projectHash" in record)
      return { kind: "gemini", sidechain: false };
    // Qwen Code's records look like Claude Code's but carry Gemini-style `parts`.
    if (
      type !== null &&
      ("toolCallResult" in record ||
        "systemPayload" in record ||
        Array.isArray((record.message as { parts?: unknown } | undefined)?.parts))
    )
      return { kind: "qwen", sidechain: false };
    if (type !== null && CODEX_KNOWN_TYPES.has(type) && typeof record.payload === "object")
      return { kind: "codex", sidechain: false };
    if (
      type !== null &&
      CLAUDE_KNOWN_TYPES.has(type) &&
      ("sessionId" in record || "uuid" in record)
    )
      return { kind: "claude-code", sidechain: record.isSidechain === true };
  }
  const first = start.records[0];
  if (first === undefined) {
    const bad = start.firstBad;
    return {
      kind: null,
      why: `line ${bad?.line ?? 1}: not JSON (${JSON.stringify(bad?.text ?? "")}): not a JSONL transcript`,
    };
  }
  return {
    kind: null,
    why: `line ${first.line}: a JSON record of no session format witness reads (Claude Code, Codex, Gemini CLI, Qwen Code, pi, GitHub Copilot CLI, Kimi Code; Cline's *.messages.json) (keys: ${keysOf(first.value)})`,
  };
}

/** A `*.messages.json` file: Cline's when it is a JSON object with a `messages` list. */
async function sniffClineDocument(path: string): Promise<Sniffed> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: null, why: `not a JSON document (${why}): not a Cline session` };
  }
  const messages = (value as { messages?: unknown } | null)?.messages;
  if (typeof value === "object" && value !== null && Array.isArray(messages))
    return { kind: "cline", sidechain: false };
  return {
    kind: null,
    why: `a JSON document without a messages list: not a Cline session (keys: ${keysOf(value)})`,
  };
}

/**
 * Reads the transcript at `target`: a session file, or a directory holding one (a cell's HOME,
 * `~/.claude`, a project directory, `$CODEX_HOME`, a fixture). In a directory the newest main
 * session is read; sidechains are read as its children. A path that is no transcript, or a
 * directory without one, is an InputError naming it.
 */
export async function openTranscript(target: string): Promise<SessionReport> {
  const info = await stat(target).catch((error: unknown) => {
    throw unreadableFile(target, error, "the transcript");
  });
  const file = info.isDirectory() ? await findSession(target) : target;
  let sniffed: Sniffed;
  try {
    sniffed = await sniffTranscript(file);
  } catch (error) {
    throw unreadableFile(file, error, "the transcript");
  }
  if (sniffed.kind === null) throw new InputError(file, [{ path: "", message: sniffed.why }]);
  return READERS[sniffed.kind](file, sniffed.sidechain);
}

async function claudeCodeReport(file: string, sidechain: boolean): Promise<SessionReport> {
  const session = await readClaudeSession(file);
  const sides =
    session.sessionId === null || sidechain ? [] : await claudeSidechains(file, session.sessionId);
  return claudeReport(session, await Promise.all(sides.map((side) => readClaudeSession(side))));
}

async function opencodeFileReport(
  file: string,
  cli: "opencode" | "kilo" = "opencode",
): Promise<SessionReport> {
  const db = await readOpencodeDb(file).catch((error: unknown) => {
    // A damaged file, or an SQLite database of something else: bad input, not a crash.
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(file, [
      { path: "", message: `an SQLite file that is no ${cli} database (${why})` },
    ]);
  });
  return opencodeReport(db, cli);
}

// One reader per CLI the catalog says witness reads: a row without one does not compile.
const READERS: Readonly<
  Record<TranscriptCliName, (file: string, sidechain: boolean) => Promise<SessionReport>>
> = {
  "claude-code": claudeCodeReport,
  codex: async (file) => codexReport(await readCodexRollout(file)),
  gemini: async (file) => geminiReport(await readGeminiChat(file)),
  qwen: async (file) => qwenReport(await readQwenChat(file)),
  pi: async (file) => piReport(await readPiSession(file)),
  opencode: (file) => opencodeFileReport(file),
  kilo: (file) => opencodeFileReport(file, "kilo"),
  kimi: async (file) => kimiReport(await readKimiWire(file)),
  copilot: async (file) => copilotReport(await readCopilotSession(file)),
  cline: async (file) => clineReport(await readClineSession(file)),
};

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");

/** True when the file starts as an SQLite database does (opencode keeps its sessions in one). */
async function isSqlite(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE_MAGIC);
  } finally {
    await handle.close();
  }
}

const SKIP = new Set(["node_modules", ".git", "subagents"]);

/** The newest main session file under `dir` (six levels deep at most). */
async function findSession(dir: string): Promise<string> {
  const files = await jsonlFiles(dir, 6);
  const mains: { path: string; mtimeMs: number }[] = [];
  for (const path of files) {
    if (isClaudeSidechainName(path.slice(path.lastIndexOf("/") + 1))) continue;
    const sniffed = await sniffTranscript(path).catch(() => null);
    if (sniffed?.kind == null || sniffed.sidechain) continue;
    mains.push({ path, mtimeMs: (await stat(path)).mtimeMs });
  }
  const newest = mains.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  if (newest === undefined) {
    const looked =
      files.length === 0
        ? "no .jsonl file, opencode.db or Cline messages.json in it"
        : `none of its ${files.length} candidate file(s) is one`;
    throw new InputError(dir, [
      {
        path: "",
        message: `no session of a CLI witness reads here (${looked})`,
      },
    ]);
  }
  return newest.path;
}

async function jsonlFiles(dir: string, depth: number): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (
      entry.isFile() &&
      (entry.name.endsWith(".jsonl") ||
        entry.name === "opencode.db" ||
        isClineSessionName(entry.name))
    )
      found.push(path);
    else if (entry.isDirectory() && depth > 0 && !SKIP.has(entry.name))
      found.push(...(await jsonlFiles(path, depth - 1)));
  }
  return found;
}

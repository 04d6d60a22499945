// Claude Code session transcript ($HOME/.claude/projects/<slug>/<session>.jsonl), typed for witness.
import { z } from "zod";

import { zodIssues } from "../core/read-input.js";
import {
  CLAUDE_KNOWN_TYPES,
  claudeAssistantRecordSchema,
  claudeAttachmentRecordSchema,
  claudeInstructionsSchema,
  type ClaudePermissionDecision,
  claudeSkillListingSchema,
  claudeToolResultBlockSchema,
  claudeToolUseBlockSchema,
  claudeUserRecordSchema,
} from "./claude-records.js";
import { type BrokenLine, recordType, streamJsonl, tally } from "./jsonl-stream.js";

export { CLAUDE_KNOWN_TYPES, type ClaudePermissionDecision } from "./claude-records.js";

/** A tool call the model made (an assistant `tool_use` block). */
export interface ClaudeToolUse {
  line: number;
  id: string;
  name: string;
  input: unknown;
}

/** What came back for a tool call (a user `tool_result` block and its record's metadata). */
export interface ClaudeToolResult {
  line: number;
  toolUseId: string;
  isError: boolean;
  text: string;
  toolUseResult: unknown;
  permissionDecision: ClaudePermissionDecision | null;
  /** e.g. `user-rejected`, when the CLI recorded why a call was denied. */
  toolDenialKind: string | null;
}

/** A memory file the CLI loaded (an `instructions` attachment entry). */
export interface ClaudeInstructionFile {
  line: number;
  path: string;
  /** User, Project or Local. */
  type: string;
  content: string;
}

/** One Claude Code session, as far as witness relies on it. */
export interface ClaudeSession {
  path: string;
  sessionId: string | null;
  version: string | null;
  cwd: string | null;
  lineCount: number;
  /** Records per `type`, known and unknown. */
  recordCounts: Record<string, number>;
  /** Records of a type this parser does not know, kept whole. */
  unknownRecords: { line: number; type: string | null; value: unknown }[];
  /** The latest prompt record's permissionMode. */
  permissionMode: string | null;
  /** Every prompt record's permissionMode, in file order. */
  permissionModes: { line: number; mode: string }[];
  toolUses: ClaudeToolUse[];
  toolResults: ClaudeToolResult[];
  instructions: ClaudeInstructionFile[];
  /** The text of each `skill_listing` attachment. */
  skillListings: string[];
  /** Lines that were not JSON or did not fit their record type's schema; all skipped. */
  broken: BrokenLine[];
  rawText: string;
}

/** Reads a Claude Code session JSONL file; bad lines are reported in `broken`, never thrown. */
export async function readClaudeSession(path: string): Promise<ClaudeSession> {
  const session: ClaudeSession = {
    path,
    sessionId: null,
    version: null,
    cwd: null,
    lineCount: 0,
    recordCounts: {},
    unknownRecords: [],
    permissionMode: null,
    permissionModes: [],
    toolUses: [],
    toolResults: [],
    instructions: [],
    skillListings: [],
    broken: [],
    rawText: "",
  };
  const summary = await streamJsonl(path, ({ line, value }) => {
    const type = recordType(value);
    tally(session.recordCounts, type ?? "(no type)");
    if (type === null || !CLAUDE_KNOWN_TYPES.includes(type)) {
      session.unknownRecords.push({ line, type, value });
      return;
    }
    const failure = readKnown(session, line, type, value);
    if (failure !== null) {
      const detail = zodIssues(failure).map((i) => `${i.path || "(record)"}: ${i.message}`);
      session.broken.push({ line, error: `${type} record: ${detail.join("; ")}` });
    }
  });
  session.lineCount = summary.lineCount;
  session.broken = [...summary.broken, ...session.broken].sort((a, b) => a.line - b.line);
  session.rawText = summary.rawText;
  return session;
}

/** Reads one record of a known type; returns the schema error when it does not fit. */
function readKnown(
  session: ClaudeSession,
  line: number,
  type: string,
  value: unknown,
): z.ZodError | null {
  if (type === "user") {
    const parsed = claudeUserRecordSchema.safeParse(value);
    if (!parsed.success) return parsed.error;
    noteIdentity(session, parsed.data);
    readUser(session, line, parsed.data);
  } else if (type === "assistant") {
    const parsed = claudeAssistantRecordSchema.safeParse(value);
    if (!parsed.success) return parsed.error;
    noteIdentity(session, parsed.data);
    readAssistant(session, line, parsed.data.message.content);
  } else if (type === "attachment") {
    const parsed = claudeAttachmentRecordSchema.safeParse(value);
    if (!parsed.success) return parsed.error;
    noteIdentity(session, parsed.data);
    readAttachment(session, line, parsed.data.attachment);
  }
  return null;
}

function noteIdentity(
  session: ClaudeSession,
  record: { sessionId?: string; cwd?: string; version?: string },
): void {
  session.sessionId ??= record.sessionId ?? null;
  session.cwd ??= record.cwd ?? null;
  session.version ??= record.version ?? null;
}

function readAssistant(session: ClaudeSession, line: number, content: unknown[]): void {
  for (const block of content) {
    const use = claudeToolUseBlockSchema.safeParse(block);
    if (use.success)
      session.toolUses.push({ line, id: use.data.id, name: use.data.name, input: use.data.input });
  }
}

function readUser(
  session: ClaudeSession,
  line: number,
  record: z.infer<typeof claudeUserRecordSchema>,
): void {
  if (record.permissionMode !== undefined) {
    session.permissionMode = record.permissionMode;
    session.permissionModes.push({ line, mode: record.permissionMode });
  }
  if (typeof record.message.content === "string") return;
  for (const block of record.message.content) {
    const result = claudeToolResultBlockSchema.safeParse(block);
    if (!result.success) continue;
    session.toolResults.push({
      line,
      toolUseId: result.data.tool_use_id,
      isError: result.data.is_error ?? false,
      text: resultText(result.data.content),
      toolUseResult: record.toolUseResult ?? null,
      permissionDecision: record.permissionDecision ?? null,
      toolDenialKind: record.toolDenialKind ?? null,
    });
  }
}

function readAttachment(session: ClaudeSession, line: number, attachment: { type: string }): void {
  const instructions = claudeInstructionsSchema.safeParse(attachment);
  if (instructions.success) {
    for (const file of instructions.data.files) {
      session.instructions.push({ line, path: file.path, type: file.type, content: file.content });
    }
  }
  const listing = claudeSkillListingSchema.safeParse(attachment);
  if (listing.success) session.skillListings.push(listing.data.content);
}

function resultText(content: z.infer<typeof claudeToolResultBlockSchema>["content"]): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((part) => part.text ?? "").join("\n");
}

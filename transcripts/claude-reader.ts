// The record-by-record reading of a Claude Code session: what readClaudeSession streams through.
import type { z } from "zod";

import { ClaudeCallTable, claudeResultText } from "./claude-calls.js";
import {
  CLAUDE_KNOWN_ATTACHMENTS,
  CLAUDE_KNOWN_BLOCKS,
  CLAUDE_KNOWN_TYPES,
  type ClaudeAssistantRecord,
  claudeAssistantRecordSchema,
  claudeAttachmentRecordSchema,
  claudeBlockSchema,
  claudeInstructionsSchema,
  claudeSkillListingSchema,
  claudeTextBlockSchema,
  claudeToolResultBlockSchema,
  claudeToolUseBlockSchema,
  type ClaudeUserRecord,
  claudeUserRecordSchema,
} from "./claude-records.js";
import type { ClaudeSession } from "./claude-session.js";
import { type Drift, type DriftLog, keysOf, noDrift } from "./drift.js";
import { recordType, tally } from "./jsonl-stream.js";
import { addUsage, type TokenUsage } from "./session-facts.js";

/** Reads one session's records in file order; `finish` returns the session. */
export class ClaudeReader {
  private readonly session: ClaudeSession;
  private readonly calls: ClaudeCallTable;
  /** Usage summed over finished messages, and the message whose records are being read. */
  private usage: TokenUsage | null = null;
  private current: { id: string; usage: TokenUsage } | null = null;
  /** Recent message ids: a message's records come together, so a short memory is enough. */
  private readonly counted: string[] = [];
  private lastTextId: string | null = null;
  private anonymous = 0;

  constructor(
    path: string,
    private readonly drift: DriftLog,
  ) {
    this.calls = new ClaudeCallTable(drift);
    this.session = {
      path,
      sessionId: null,
      version: null,
      cwd: null,
      isSidechain: false,
      agentId: null,
      lineCount: 0,
      recordCounts: {},
      permissionMode: null,
      permissionModes: [],
      models: [],
      calls: [],
      finalText: null,
      usage: null,
      instructions: [],
      skillListings: [],
      markersSeen: [],
      drift: noDrift(),
    };
  }

  record(line: number, value: unknown): void {
    const type = recordType(value);
    tally(this.session.recordCounts, type ?? "(no type)");
    if (type === null || !CLAUDE_KNOWN_TYPES.has(type)) {
      this.drift.noteUnknownType(line, type, value);
      return;
    }
    if (type === "user")
      this.parsed(line, type, claudeUserRecordSchema, value, (r) => this.user(line, r));
    else if (type === "assistant")
      this.parsed(line, type, claudeAssistantRecordSchema, value, (r) => this.assistant(line, r));
    else if (type === "attachment")
      this.parsed(line, type, claudeAttachmentRecordSchema, value, (r) =>
        this.attachment(line, r.attachment),
      );
  }

  finish(lineCount: number, markersSeen: string[], drift: Drift): ClaudeSession {
    const usage = this.current === null ? this.usage : addUsage(this.usage, this.current.usage);
    return { ...this.session, lineCount, calls: this.calls.list(), usage, markersSeen, drift };
  }

  private parsed<S extends z.ZodType>(
    line: number,
    type: string,
    schema: S,
    value: unknown,
    use: (record: z.infer<S>) => void,
  ): void {
    const result = schema.safeParse(value);
    if (!result.success) return this.drift.noteSchema(line, type, result.error);
    const record = result.data as { sessionId?: string; cwd?: string; version?: string };
    this.session.sessionId ??= record.sessionId ?? null;
    this.session.cwd ??= record.cwd ?? null;
    this.session.version ??= record.version ?? null;
    const side = result.data as { isSidechain?: boolean; agentId?: string };
    if (side.isSidechain === true) this.session.isSidechain = true;
    this.session.agentId ??= side.agentId ?? null;
    use(result.data);
  }

  private user(line: number, record: ClaudeUserRecord): void {
    if (record.permissionMode !== undefined) {
      this.session.permissionMode = record.permissionMode;
      this.session.permissionModes.push({ line, mode: record.permissionMode });
    }
    if (typeof record.message.content === "string") return;
    for (const block of this.blocks(line, "user", record.message.content)) {
      if (block.type !== "tool_result") continue;
      const result = claudeToolResultBlockSchema.safeParse(block);
      if (!result.success) {
        this.drift.noteSchema(line, "user/tool_result", result.error);
        continue;
      }
      this.calls.result(result.data, {
        line,
        isError: result.data.is_error ?? false,
        text: claudeResultText(result.data.content),
        permissionDecision: record.permissionDecision ?? null,
        toolDenialKind: record.toolDenialKind ?? null,
      });
    }
  }

  private assistant(line: number, record: ClaudeAssistantRecord): void {
    const message = record.message;
    const id = message.id ?? `(record ${(this.anonymous += 1)})`;
    if (
      message.model !== undefined &&
      message.model !== "<synthetic>" &&
      !this.session.models.includes(message.model)
    )
      this.session.models.push(message.model);
    if (message.usage !== undefined) this.noteUsage(id, message.usage);
    for (const block of this.blocks(line, "assistant", message.content)) {
      if (block.type === "tool_use") {
        const use = claudeToolUseBlockSchema.safeParse(block);
        if (!use.success) this.drift.noteSchema(line, "assistant/tool_use", use.error);
        else this.calls.use(line, use.data.id, use.data.name, use.data.input);
      } else if (block.type === "text") {
        const text = claudeTextBlockSchema.safeParse(block);
        if (!text.success) continue;
        // One message may span several records (one per content block): join its text blocks.
        this.session.finalText =
          this.lastTextId === id && this.session.finalText !== null
            ? `${this.session.finalText}\n${text.data.text}`
            : text.data.text;
        this.lastTextId = id;
      }
    }
  }

  /** Counts a message's usage once: its records repeat it (the last copy is the final count). */
  private noteUsage(id: string, u: NonNullable<ClaudeAssistantRecord["message"]["usage"]>): void {
    const usage: TokenUsage = {
      inputTokens: u.input_tokens ?? 0,
      outputTokens: u.output_tokens ?? 0,
      cachedInputTokens: u.cache_read_input_tokens ?? 0,
      cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
    };
    if (this.current?.id === id) {
      this.current.usage = usage;
      return;
    }
    if (this.counted.includes(id)) return;
    if (this.current !== null) this.usage = addUsage(this.usage, this.current.usage);
    this.current = { id, usage };
    this.counted.push(id);
    if (this.counted.length > 16) this.counted.shift();
  }

  private attachment(line: number, attachment: { type: string }): void {
    if (!CLAUDE_KNOWN_ATTACHMENTS.has(attachment.type)) {
      const detail = `unknown attachment type "${attachment.type}" (keys: ${keysOf(attachment)})`;
      return this.drift.note(line, "unknown-payload", `attachment/${attachment.type}`, detail);
    }
    const instructions = claudeInstructionsSchema.safeParse(attachment);
    if (instructions.success) {
      for (const file of instructions.data.files)
        this.session.instructions.push({
          line,
          path: file.path,
          type: file.type,
          content: file.content,
        });
    }
    const listing = claudeSkillListingSchema.safeParse(attachment);
    if (listing.success) this.session.skillListings.push(listing.data.content);
  }

  /** The content blocks whose type is known; the others are noted as drift. */
  private blocks(line: number, role: string, content: unknown[]): { type: string }[] {
    const known: { type: string }[] = [];
    for (const raw of content) {
      const block = claudeBlockSchema.safeParse(raw);
      if (!block.success)
        this.drift.note(line, "missing-field", `${role}/content`, "content block without a type");
      else if (!CLAUDE_KNOWN_BLOCKS.has(block.data.type))
        this.drift.note(
          line,
          "unknown-payload",
          `${role}/${block.data.type}`,
          `unknown content block type "${block.data.type}"`,
        );
      else known.push(block.data);
    }
    return known;
  }
}

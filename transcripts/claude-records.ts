// Claude Code transcript records, typed only where witness reads them; the rest passes through.
import { z } from "zod";

/**
 * Record types Claude Code writes, with the first version each was seen in: `user` and
 * `assistant` (0.2.126), `queue-operation` (2.0.30), `last-prompt` (2.1.75), `attachment`
 * (2.1.100), `atis-latch` (2.1.240), `cost-state` (2.1.282), `api-request-shape`,
 * `api-request-blob`, `api-request` (2.1.300), `tools-used` (2.1.316). Any other is drift.
 */
export const CLAUDE_KNOWN_TYPES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "queue-operation",
  "last-prompt",
  "attachment",
  "atis-latch",
  "cost-state",
  "api-request-shape",
  "api-request-blob",
  "api-request",
  "tools-used",
]);

/** Attachment types seen (2.1.100 – 2.1.332); any other is drift. */
export const CLAUDE_KNOWN_ATTACHMENTS: ReadonlySet<string> = new Set([
  "agent_listing_delta",
  "auto_mode",
  "date",
  "deferred_tools_delta",
  "environment",
  "instructions",
  "model",
  "plan_mode",
  "prompt_snapshot",
  "remote_session_change",
  "session_context",
  "skill_listing",
  "total_tokens_reminder",
]);

/** Content block types of the Messages API that the CLI copies into its records. */
export const CLAUDE_KNOWN_BLOCKS: ReadonlySet<string> = new Set([
  "text",
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "image",
]);

/** `permissionDecision` on a tool-result `user` record (2.1.295+). */
export const claudePermissionDecisionSchema = z.looseObject({
  decision: z.string(),
  source: z.string().optional(),
  reasonType: z.string().optional(),
  reasonCode: z.string().optional(),
  ruleSource: z.string().optional(),
});
export type ClaudePermissionDecision = z.infer<typeof claudePermissionDecisionSchema>;

const common = {
  sessionId: z.string().optional(),
  cwd: z.string().optional(),
  version: z.string().optional(),
  isSidechain: z.boolean().optional(),
  agentId: z.string().optional(),
};

/** A `user` record: a prompt (with permissionMode, 2.1.17+) or tool results. */
export const claudeUserRecordSchema = z.looseObject({
  ...common,
  type: z.literal("user"),
  permissionMode: z.string().optional(),
  message: z.looseObject({ content: z.union([z.string(), z.array(z.unknown())]) }),
  toolUseResult: z.unknown().optional(),
  permissionDecision: claudePermissionDecisionSchema.optional(),
  toolDenialKind: z.string().optional(),
});
export type ClaudeUserRecord = z.infer<typeof claudeUserRecordSchema>;

/** Token counts of one assistant message. */
export const claudeUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
});

/** An `assistant` record: one or more content blocks of one model message. */
export const claudeAssistantRecordSchema = z.looseObject({
  ...common,
  type: z.literal("assistant"),
  message: z.looseObject({
    id: z.string().optional(),
    model: z.string().optional(),
    content: z.array(z.unknown()),
    usage: claudeUsageSchema.optional(),
  }),
});
export type ClaudeAssistantRecord = z.infer<typeof claudeAssistantRecordSchema>;

/** An `attachment` record: context the CLI attached (memory files, skills, environment …). */
export const claudeAttachmentRecordSchema = z.looseObject({
  ...common,
  type: z.literal("attachment"),
  attachment: z.looseObject({ type: z.string() }),
});

/** A content block: only its type is relied on until the type is known. */
export const claudeBlockSchema = z.looseObject({ type: z.string() });

/** A `tool_use` content block. */
export const claudeToolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});

/** A `text` content block. */
export const claudeTextBlockSchema = z.looseObject({ type: z.literal("text"), text: z.string() });

/** A `tool_result` content block. */
export const claudeToolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  is_error: z.boolean().optional(),
  content: z
    .union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))])
    .optional(),
});
export type ClaudeToolResultBlock = z.infer<typeof claudeToolResultBlockSchema>;

/** An `instructions` attachment: the memory files the CLI loaded (2.1.282+). */
export const claudeInstructionsSchema = z.looseObject({
  type: z.literal("instructions"),
  files: z.array(z.looseObject({ path: z.string(), type: z.string(), content: z.string() })),
});

/** A `skill_listing` attachment. */
export const claudeSkillListingSchema = z.looseObject({
  type: z.literal("skill_listing"),
  content: z.string(),
});

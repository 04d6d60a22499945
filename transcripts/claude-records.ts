// Claude Code transcript records, typed only where witness reads them; the rest passes through.
import { z } from "zod";

/** Record types Claude Code 2.1.33x writes; anything else is kept as unknown. */
export const CLAUDE_KNOWN_TYPES: readonly string[] = [
  "queue-operation",
  "user",
  "attachment",
  "atis-latch",
  "api-request-shape",
  "api-request-blob",
  "api-request",
  "tools-used",
  "assistant",
  "last-prompt",
  "cost-state",
];

/** `permissionDecision` on a tool-result `user` record. */
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
};

/** A `user` record: a prompt (with permissionMode) or tool results (with permissionDecision). */
export const claudeUserRecordSchema = z.looseObject({
  ...common,
  type: z.literal("user"),
  permissionMode: z.string().optional(),
  message: z.looseObject({ content: z.union([z.string(), z.array(z.unknown())]) }),
  toolUseResult: z.unknown().optional(),
  permissionDecision: claudePermissionDecisionSchema.optional(),
  toolDenialKind: z.string().optional(),
});

/** An `assistant` record: the model's content blocks. */
export const claudeAssistantRecordSchema = z.looseObject({
  ...common,
  type: z.literal("assistant"),
  message: z.looseObject({ content: z.array(z.unknown()) }),
});

/** An `attachment` record: context the CLI attached (memory files, skills, environment …). */
export const claudeAttachmentRecordSchema = z.looseObject({
  ...common,
  type: z.literal("attachment"),
  attachment: z.looseObject({ type: z.string() }),
});

/** A `tool_use` content block. */
export const claudeToolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});

/** A `tool_result` content block. */
export const claudeToolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  is_error: z.boolean().optional(),
  content: z
    .union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))])
    .optional(),
});

/** An `instructions` attachment: the memory files the CLI loaded. */
export const claudeInstructionsSchema = z.looseObject({
  type: z.literal("instructions"),
  files: z.array(z.looseObject({ path: z.string(), type: z.string(), content: z.string() })),
});

/** A `skill_listing` attachment. */
export const claudeSkillListingSchema = z.looseObject({
  type: z.literal("skill_listing"),
  content: z.string(),
});

// Codex rollout lines, typed only where witness reads them; the rest passes through.
import { z } from "zod";

/** Line types Codex 0.16x–0.17x writes; anything else is kept as unknown. */
export const CODEX_KNOWN_TYPES: readonly string[] = [
  "session_meta",
  "event_msg",
  "response_item",
  "world_state",
  "turn_context",
  "token_usage_record",
];

/** Every rollout line: `{timestamp, ordinal, type, payload}`. */
export const codexLineSchema = z.looseObject({ type: z.string(), payload: z.looseObject({}) });

/** The `session_meta` payload. */
export const codexSessionMetaSchema = z.looseObject({
  id: z.string(),
  cwd: z.string().optional(),
  cli_version: z.string().optional(),
  originator: z.string().optional(),
  source: z.unknown().optional(),
  model_provider: z.string().optional(),
});

/** A `turn_context` payload: the policies one turn ran under. */
export const codexTurnContextSchema = z.looseObject({
  turn_id: z.string().optional(),
  cwd: z.string().optional(),
  approval_policy: z.unknown().optional(),
  sandbox_policy: z.looseObject({ type: z.string() }),
  model: z.string().optional(),
});

/** The item of an `event_msg` item_completed for an executed command. */
export const codexCommandItemSchema = z.looseObject({
  type: z.literal("CommandExecution"),
  id: z.string(),
  command: z.union([z.array(z.string()), z.string()]),
  cwd: z.string().optional(),
  status: z.string().optional(),
  exit_code: z.number().nullable().optional(),
  aggregated_output: z.string().nullable().optional(),
});

/** A `response_item` custom_tool_call (the `exec` tool). */
export const codexCustomCallSchema = z.looseObject({
  type: z.literal("custom_tool_call"),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
  status: z.string().optional(),
});

/** Tool output: a string or text parts. */
export const codexOutputTextSchema = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

/** A `response_item` custom_tool_call_output. */
export const codexCustomOutputSchema = z.looseObject({
  type: z.literal("custom_tool_call_output"),
  call_id: z.string(),
  output: codexOutputTextSchema,
});

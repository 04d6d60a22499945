// Codex rollout lines, typed only where witness reads them; the rest passes through.
import { z } from "zod";

/** Line types Codex writes (0.58 – 0.171): `world_state` from 0.147, `token_usage_record` 0.153. */
export const CODEX_KNOWN_TYPES: ReadonlySet<string> = new Set([
  "session_meta",
  "event_msg",
  "response_item",
  "world_state",
  "turn_context",
  "token_usage_record",
]);

/**
 * `response_item` payload types seen: message, function_call(_output) (≤ 0.143), custom_tool_call
 * (_output) (0.144+), local_shell_call (0.60 answers one), ghost_snapshot (0.58 – 0.60),
 * additional_tools (0.169+); `reasoning` is the Responses API's own item.
 */
export const CODEX_KNOWN_ITEMS: ReadonlySet<string> = new Set([
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "ghost_snapshot",
  "additional_tools",
  "reasoning",
]);

/** `event_msg` payload types seen: the first four in every version, the rest from 0.142 on. */
export const CODEX_KNOWN_EVENTS: ReadonlySet<string> = new Set([
  "user_message",
  "agent_message",
  "token_count",
  "task_started",
  "task_complete",
  "item_completed",
  "thread_settings_applied",
]);

/**
 * Item types of `item_completed` events (0.148+). `FileChange` is what an `apply_patch` call
 * changed (paths, add/update/delete, status); the call itself is judged from its output.
 */
export const CODEX_KNOWN_EVENT_ITEMS: ReadonlySet<string> = new Set([
  "UserMessage",
  "AgentMessage",
  "CommandExecution",
  "FileChange",
]);

/** Every rollout line: `{timestamp, type, payload}` (and `ordinal` from 0.148). */
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

/** `sandbox_policy`: `{type}` from 0.59, `{mode}` in 0.58. */
export const codexSandboxPolicySchema = z.union([
  z.looseObject({ type: z.string() }),
  z.looseObject({ mode: z.string() }),
  z.string(),
]);

/** A sandbox_policy as one word: its `type`, 0.58's `mode`, or the string itself. */
export function sandboxPolicyText(policy: z.infer<typeof codexSandboxPolicySchema>): string {
  if (typeof policy === "string") return policy;
  const word = (policy as { type?: unknown }).type ?? (policy as { mode?: unknown }).mode;
  return typeof word === "string" ? word : JSON.stringify(policy);
}

/** An approval_policy as text: the string, or the JSON of anything else; null when absent. */
export function approvalPolicyText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A `turn_context` payload: the policies one turn ran under. */
export const codexTurnContextSchema = z.looseObject({
  turn_id: z.string().optional(),
  cwd: z.string().optional(),
  approval_policy: z.unknown().optional(),
  sandbox_policy: codexSandboxPolicySchema,
  model: z.string().optional(),
});

/** The item of an `item_completed` event for an executed command (0.148+). */
export const codexCommandItemSchema = z.looseObject({
  type: z.literal("CommandExecution"),
  id: z.string(),
  command: z.union([z.array(z.string()), z.string()]),
  cwd: z.string().optional(),
  status: z.string().optional(),
  exit_code: z.number().nullable().optional(),
  aggregated_output: z.string().nullable().optional(),
});

/** Tool output: a string or text parts. */
export const codexOutputTextSchema = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

/** A `function_call` item: `shell` (0.58), `shell_command` (0.59 – 0.95), `exec_command` … */
export const codexFunctionCallSchema = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
});

/** A `custom_tool_call` item (the `exec` tool holding JavaScript, 0.144+). */
export const codexCustomCallSchema = z.looseObject({
  type: z.literal("custom_tool_call"),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
});

/** A `local_shell_call` item: the command is in `action`. */
export const codexLocalShellCallSchema = z.looseObject({
  type: z.literal("local_shell_call"),
  call_id: z.string(),
  action: z.looseObject({ command: z.array(z.string()) }),
});

/** A `function_call_output` or `custom_tool_call_output` item. */
export const codexCallOutputSchema = z.looseObject({
  type: z.enum(["function_call_output", "custom_tool_call_output"]),
  call_id: z.string(),
  output: z.union([codexOutputTextSchema, z.looseObject({})]),
});

/** A `message` item; the assistant's are the model's text. */
export const codexMessageSchema = z.looseObject({
  type: z.literal("message"),
  role: z.string(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});

/** Token counts as `token_count` events carry them. */
export const codexTokenUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  cached_input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
});

/** A `token_count` event; `info` is null until the model reports usage. */
export const codexTokenCountSchema = z.looseObject({
  type: z.literal("token_count"),
  info: z.looseObject({ total_token_usage: codexTokenUsageSchema }).nullable().optional(),
});

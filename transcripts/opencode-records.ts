// The rows and JSON columns of opencode's session database that witness reads; loose objects,
// so fields witness does not use pass through untouched.
import { z } from "zod";

/** A `session` row, as selected by the reader. */
export const opencodeSessionRowSchema = z.looseObject({
  id: z.string(),
  directory: z.string(),
  title: z.string(),
  version: z.string(),
  /** JSON text: the session's permission rules. */
  permission: z.string().nullable(),
  /** Absent in Kilo 7.0.33's older session table (its messages name the model). */
  agent: z.string().nullable().optional(),
  /** JSON text: `{id, providerID, variant}`; absent in Kilo 7.0.33. */
  model: z.string().nullable().optional(),
});

/** A `message` or `part` row: its id, its session and its JSON `data`. */
export const opencodeDataRowSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  data: z.string(),
});

/** A `part` row: a data row that also names its message. */
export const opencodePartRowSchema = opencodeDataRowSchema.extend({ message_id: z.string() });

/** A part's `data`: every part has a type. */
export const opencodePartSchema = z.looseObject({ type: z.string() });

/** A `tool` part's `data`: one tool call and how it ended. */
export const opencodeToolPartSchema = z.looseObject({
  type: z.literal("tool"),
  tool: z.string(),
  callID: z.string(),
  state: z.looseObject({
    /** `pending`, `running`, `completed` or `error`. */
    status: z.string(),
    input: z.record(z.string(), z.unknown()).optional(),
    output: z.string().optional(),
    error: z.string().optional(),
    metadata: z.looseObject({ exit: z.number().nullable().optional() }).optional(),
  }),
});

/** A message's `data`: who spoke, and (assistant) why the step ended. */
export const opencodeMessageSchema = z.looseObject({
  role: z.string(),
  agent: z.string().optional(),
  finish: z.string().optional(),
  providerID: z.string().optional(),
  modelID: z.string().optional(),
});

/** The part types opencode 1.18 writes; any other is kept and counted as unknown. */
export const OPENCODE_KNOWN_PARTS = [
  "text",
  "tool",
  "step-start",
  "step-finish",
  "reasoning",
  "file",
  "patch",
  "snapshot",
  "agent",
  "subtask",
  "compaction",
  "retry",
];

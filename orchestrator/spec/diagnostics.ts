import { z } from "zod";

/** One finding about a node or a workflow: errors stop a launch, warnings and notes are printed. */
export const diagnosticSchema = z.strictObject({
  severity: z.enum(["error", "warning", "info"]),
  code: z.string(),
  /** The node it concerns, when it concerns one. */
  nodeId: z.string().optional(),
  message: z.string(),
});
export type Diagnostic = z.infer<typeof diagnosticSchema>;

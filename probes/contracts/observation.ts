import { z } from "zod";

/** Where a marker was seen. */
export const markerLocationSchema = z.enum(["system", "messages", "tools", "transcript"]);
export type MarkerLocation = z.infer<typeof markerLocationSchema>;

/** How a tool call ended, as the CLI reported it back to the model. */
export const toolOutcomeSchema = z.enum(["ran", "denied", "no-such-tool", "error", "unknown"]);
export type ToolOutcome = z.infer<typeof toolOutcomeSchema>;

/** How the spawn was kept off the network. */
export const isolationSchema = z.enum(["netns", "loopback-config"]);

/** Everything one probe spawn observed. Every field comes from what the CLI did. */
export const observationSchema = z.object({
  cli: z.object({ name: z.string(), version: z.string() }),
  argv: z.array(z.string()),
  /** The child's environment, secrets redacted. */
  env: z.record(z.string(), z.string()),
  cwd: z.string(),
  isolation: isolationSchema,
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  requestCount: z.number().int(),
  markers: z.array(
    z.object({
      name: z.string(),
      value: z.string(),
      /** Cell-relative paths the marker was planted in. */
      planted: z.array(z.string()),
      seenIn: z.array(markerLocationSchema),
    }),
  ),
  sentinels: z.array(z.object({ name: z.string(), path: z.string(), created: z.boolean() })),
  toolsOffered: z.array(z.string()),
  toolCalls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      input: z.unknown(),
      outcome: toolOutcomeSchema,
      resultText: z.string(),
      /** Claude Code transcript permissionDecision.decision, when recorded. */
      permissionDecision: z.string().nullable(),
    }),
  ),
  /** Claude Code: the prompt record's permissionMode; Codex: the turn context's approval policy. */
  permissionMode: z.string().nullable(),
  /** Codex: turn_context.sandbox_policy.type. */
  sandboxPolicy: z.string().nullable(),
  /** Requests besides the model calls (preconnects …), by method and path, with the status answered. */
  sideRequests: z
    .array(
      z.object({
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        count: z.number().int(),
      }),
    )
    .default([]),
  /** The CLI's own calls on the model route (warm-ups, prefix checks …), answered with text. */
  helperCalls: z.array(z.object({ kind: z.string(), count: z.number().int() })).default([]),
  /** The argument the CLI refused before doing anything, in its own words (null when none). */
  rejectedArgv: z.object({ flag: z.string(), message: z.string() }).nullable().default(null),
  /** Infrastructure problems that make this spawn unfit as evidence (empty when none). */
  faults: z.array(z.string()),
  stdoutTail: z.string(),
  stderrTail: z.string(),
});
export type Observation = z.infer<typeof observationSchema>;

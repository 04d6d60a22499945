import { z } from "zod";

import { CALL_OUTCOMES } from "../../clis/outcome.js";
import { redactArgv, redactEnv, redactStrings, redactText } from "../../core/redact.js";
import { runtimeSchema } from "./runtime.js";

/** Where a marker was seen. */
export const markerLocationSchema = z.enum(["system", "messages", "tools", "transcript"]);
export type MarkerLocation = z.infer<typeof markerLocationSchema>;

/** Characters of a created sentinel's content an observation keeps. */
export const SENTINEL_CONTENT_KEPT = 4096;

/** How a tool call ended (clis/outcome.ts). */
export const toolOutcomeSchema = z.enum(CALL_OUTCOMES);
export type ToolOutcome = z.infer<typeof toolOutcomeSchema>;

/** Characters of context kept on each side of a marker occurrence (the widest `near` window). */
export const SIGHTING_CONTEXT = { before: 400, after: 160 } as const;
/** Occurrences whose context a sighting keeps (the count covers all of them). */
export const SIGHTING_CONTEXTS_KEPT = 4;

/**
 * Where one marker occurred in one agent request: the section, the role of the entry it was in
 * (a message's role, a Codex input item's; null for a section without roles), how often, and the
 * text around the first few occurrences, all read from the request's JSON text.
 */
export const sightingSchema = z.object({
  /** Index among the spawn's agent requests (0 = the first request the CLI sent for a turn). */
  request: z.number().int(),
  location: z.enum(["system", "messages", "tools"]),
  role: z.string().nullable(),
  count: z.number().int(),
  /** Up to SIGHTING_CONTEXTS_KEPT occurrences: the text just before and just after the marker. */
  contexts: z.array(z.object({ before: z.string(), after: z.string() })),
});
export type Sighting = z.infer<typeof sightingSchema>;
/** Tokens a session used, as its transcript recorded them. */
export const tokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** How the spawn was kept off the network. */
export const isolationSchema = z.enum(["netns", "loopback-config"]);

/** Everything one probe spawn observed. Every field comes from what the CLI did. */
export const observationSchema = z.object({
  cli: z.object({ name: z.string(), version: z.string() }),
  argv: z.array(z.string()),
  /** What the CLI got on stdin, when it was given something (a prompt the orchestrator sends there). */
  stdin: z.string().optional(),
  /** The child's environment, secrets redacted. */
  env: z.record(z.string(), z.string()),
  cwd: z.string(),
  isolation: isolationSchema,
  /** In a network namespace: the program that bridged its loopback to the fake server. */
  netnsForwarder: z.enum(["socat", "node"]).optional(),
  /** What ran the CLI: the Node (path, version, why) first on its PATH, or none for a native binary. */
  runtime: runtimeSchema.optional(),
  /** How the CLI's process tree was tied to witness: its own PID namespace, or a process group. */
  containment: z.enum(["pidns", "process-group"]).optional(),
  /** The machine-wide managed files the driver names, and whether each existed at the spawn. */
  managedFiles: z.array(z.object({ path: z.string(), present: z.boolean() })).optional(),
  /** Under `managed: mask`, the directories hidden from the CLI (empty: none of its files existed). */
  managedMasked: z.array(z.string()).optional(),
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
      /** Per agent request, section and role (absent in records written before it existed). */
      sightings: z.array(sightingSchema).optional(),
    }),
  ),
  sentinels: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      created: z.boolean(),
      /** The file's first SENTINEL_CONTENT_KEPT characters, when it was created as a file. */
      content: z.string().nullable().optional(),
    }),
  ),
  toolsOffered: z.array(z.string()),
  toolCalls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      input: z.unknown(),
      outcome: toolOutcomeSchema,
      /** What decided the outcome, in the classifier's words (absent in older records). */
      because: z.string().optional(),
      resultText: z.string(),
      /** The CLI's own recorded permission decision (Claude Code's permissionDecision …), when recorded. */
      permissionDecision: z.string().nullable(),
      /** Its place in the script, 1-based across every turn's calls (absent in older records). */
      call: z.number().int().optional(),
      /** How the transcript says the call ended (absent in records written before it was read). */
      transcriptOutcome: toolOutcomeSchema.optional(),
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
  // The transcript fields below are optional: records written before they existed still parse.
  /** The transcript the CLI wrote, relative to the cell root (null when it wrote none). */
  transcriptFile: z.string().nullable().optional(),
  /** Every turn's permission mode (Claude Code) or approval policy (Codex), in order. */
  permissionModes: z.array(z.string()).optional(),
  /** Every turn's sandbox policy (Codex), in order. */
  sandboxPolicies: z.array(z.string()).optional(),
  /** The model the session named last. */
  model: z.string().nullable().optional(),
  tokenUsage: tokenUsageSchema.nullable().optional(),
  /** The session's last assistant text. */
  finalText: z.string().nullable().optional(),
  /**
   * Lines of the transcript the reader could not use (unknown record or payload types, missing
   * fields, lines that are not JSON), as `file:line: …`: the CLI's format may have moved.
   */
  transcriptWarnings: z.array(z.string()).optional(),
  /** Infrastructure problems that make this spawn unfit as evidence (empty when none). */
  faults: z.array(z.string()),
  stdoutTail: z.string(),
  stderrTail: z.string(),
});
export type Observation = z.infer<typeof observationSchema>;

/**
 * An observation with its secrets redacted, once: the environment by name and value, the argv
 * (secret flags, JSON fields, key shapes), and every text the CLI printed or a tool returned.
 */
export function redactObservation(o: Observation): Observation {
  return {
    ...o,
    argv: redactArgv(o.argv),
    ...(o.stdin === undefined ? {} : { stdin: redactText(o.stdin) }),
    env: redactEnv(o.env),
    toolCalls: redactStrings(o.toolCalls),
    rejectedArgv: redactStrings(o.rejectedArgv),
    faults: redactStrings(o.faults),
    stdoutTail: redactStrings(o.stdoutTail),
    stderrTail: redactStrings(o.stderrTail),
  };
}

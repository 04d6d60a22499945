import { z } from "zod";

import { markerLocationSchema, toolOutcomeSchema } from "../probes/contracts/observation.js";

const name = z.string().regex(/^[A-Za-z0-9_]+$/, "expected a name of letters, digits and _");

/** A marker reached the model (anywhere, or in the named location). */
const markerPresentSchema = z.strictObject({
  kind: z.literal("marker-present"),
  marker: name,
  in: markerLocationSchema.optional(),
});

/** A marker did not reach the model (anywhere, or not in the named location). */
const markerAbsentSchema = z.strictObject({
  kind: z.literal("marker-absent"),
  marker: name,
  in: markerLocationSchema.optional(),
});

const sentinelCreatedSchema = z.strictObject({
  kind: z.literal("sentinel-created"),
  sentinel: name,
});
const sentinelAbsentSchema = z.strictObject({ kind: z.literal("sentinel-absent"), sentinel: name });
const toolOfferedSchema = z.strictObject({
  kind: z.literal("tool-offered"),
  tool: z.string().min(1),
});
const toolNotOfferedSchema = z.strictObject({
  kind: z.literal("tool-not-offered"),
  tool: z.string().min(1),
});

const outcome = toolOutcomeSchema.exclude(["unknown"]);

/**
 * Every call of `tool` ended with `outcome`, or with one of a list of outcomes (and there was at
 * least one call). A single outcome parses to the bare string, as before lists existed.
 */
const toolCallSchema = z.strictObject({
  kind: z.literal("tool-call"),
  tool: z.string().min(1),
  outcome: z.union([outcome, z.array(outcome).min(1, "expected at least one outcome")], {
    error: `expected one of ${outcome.options.join(", ")}, or a non-empty list of them`,
  }),
});

/** The outcomes a tool-call predicate accepts, as a list. */
export function acceptedOutcomes(p: Extract<Predicate, { kind: "tool-call" }>): string[] {
  return typeof p.outcome === "string" ? [p.outcome] : [...p.outcome];
}

const exitCodeSchema = z.strictObject({ kind: z.literal("exit-code"), equals: z.number().int() });
const permissionModeSchema = z.strictObject({
  kind: z.literal("permission-mode"),
  equals: z.string().min(1),
});
const sandboxPolicySchema = z.strictObject({
  kind: z.literal("sandbox-policy"),
  equals: z.string().min(1),
});

/** One declared expected outcome, evaluated against a single spawn's observation. */
export const predicateSchema = z.discriminatedUnion("kind", [
  markerPresentSchema,
  markerAbsentSchema,
  sentinelCreatedSchema,
  sentinelAbsentSchema,
  toolOfferedSchema,
  toolNotOfferedSchema,
  toolCallSchema,
  exitCodeSchema,
  permissionModeSchema,
  sandboxPolicySchema,
]);
export type Predicate = z.infer<typeof predicateSchema>;

/** The predicate kinds a protocol may use, for documentation and error messages. */
export const PREDICATE_KINDS: readonly Predicate["kind"][] = predicateSchema.options.map(
  (option) => option.shape.kind.value,
);

/** A short human label for a predicate, e.g. `marker-absent HOME_MD in system`. */
export function predicateLabel(p: Predicate): string {
  switch (p.kind) {
    case "marker-present":
    case "marker-absent":
      return `${p.kind} ${p.marker}${p.in === undefined ? "" : ` in ${p.in}`}`;
    case "sentinel-created":
    case "sentinel-absent":
      return `${p.kind} ${p.sentinel}`;
    case "tool-offered":
    case "tool-not-offered":
      return `${p.kind} ${p.tool}`;
    case "tool-call":
      return `tool-call ${p.tool} ${acceptedOutcomes(p).join(" or ")}`;
    case "exit-code":
    case "permission-mode":
    case "sandbox-policy":
      return `${p.kind} ${String(p.equals)}`;
  }
}

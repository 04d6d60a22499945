import { z } from "zod";
import { markerLocationSchema, toolOutcomeSchema } from "../probes/observation.js";

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

/** Every call of `tool` ended with `outcome` (and there was at least one call). */
const toolCallSchema = z.strictObject({
  kind: z.literal("tool-call"),
  tool: z.string().min(1),
  outcome: toolOutcomeSchema.exclude(["unknown"]),
});

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
      return `tool-call ${p.tool} ${p.outcome}`;
    case "exit-code":
    case "permission-mode":
    case "sandbox-policy":
      return `${p.kind} ${String(p.equals)}`;
  }
}

import { z } from "zod";

import {
  markerLocationSchema,
  SIGHTING_CONTEXT,
  toolOutcomeSchema,
} from "../probes/contracts/observation.js";
import { agreesWithLabel, agreesWithSchema } from "./agreement.js";
import { modelCallsLabel, modelCallsSchema } from "./model-call-predicate.js";
import {
  spawnCountSchema,
  spawnedSchema,
  type SpawnSelector,
  spawnSelectorSchema,
} from "./spawn-predicates.js";

const name = z.string().regex(/^[A-Za-z0-9_]+$/, "expected a name of letters, digits and _");

/** Text that must stand within `within` characters of the marker (before or after it). */
const nearSchema = z.strictObject({
  text: z.string().min(1, "expected the text to look for, e.g. a heading"),
  within: z
    .number()
    .int()
    .min(1)
    .max(SIGHTING_CONTEXT.before, {
      message: `expected at most ${SIGHTING_CONTEXT.before} characters (what an observation keeps)`,
    })
    .default(200),
});

/**
 * Where in the agent requests a marker is looked for: a request (0 = the first agent request),
 * a section, the role of the entry (e.g. `system` for a system-role entry inside `messages`),
 * and text near it. Any of them makes the predicate read the observation's per-request sightings.
 */
const scopeFields = {
  in: markerLocationSchema.optional(),
  request: z.number().int().min(0, "expected a request index of 0 or more").optional(),
  role: z.string().min(1, "expected a role such as system, user or developer").optional(),
  near: nearSchema.optional(),
  /** An orchestrator launch: the spawn whose requests are read (absent: all of them together). */
  spawn: spawnSelectorSchema.optional(),
};

type Scope = { in?: string; request?: number; role?: string; near?: unknown };

// The transcript is one text without requests or roles: a narrower scope cannot apply to it.
function refineScope(p: Scope, ctx: z.RefinementCtx): void {
  if (p.in !== "transcript") return;
  for (const key of ["request", "role", "near"] as const) {
    if (p[key] !== undefined)
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `expected no ${key} with in: transcript (the transcript has no requests or roles)`,
      });
  }
}

/** A marker reached the model (anywhere, or in the named scope). */
const markerPresentSchema = z
  .strictObject({ kind: z.literal("marker-present"), marker: name, ...scopeFields })
  .superRefine(refineScope);

/** A marker did not reach the model (anywhere, or not in the named scope). */
const markerAbsentSchema = z
  .strictObject({ kind: z.literal("marker-absent"), marker: name, ...scopeFields })
  .superRefine(refineScope);

/**
 * How often a marker occurs in one agent request (`request`, the first by default): exactly
 * `count` times, or at least `atLeast` times, optionally in one section, role, or near a text.
 */
const markerCountSchema = z
  .strictObject({
    kind: z.literal("marker-count"),
    marker: name,
    count: z.number().int().min(0, "expected a count of 0 or more").optional(),
    atLeast: z.number().int().min(1, "expected atLeast of 1 or more").optional(),
    in: z
      .enum(["system", "messages", "tools"], {
        error: "expected system, messages or tools (counts are per request)",
      })
      .optional(),
    request: z.number().int().min(0, "expected a request index of 0 or more").default(0),
    role: scopeFields.role,
    near: scopeFields.near,
  })
  .superRefine((p, ctx) => {
    if ((p.count === undefined) === (p.atLeast === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["count"],
        message: "expected exactly one of count or atLeast",
      });
  });

const sentinelCreatedSchema = z.strictObject({
  kind: z.literal("sentinel-created"),
  sentinel: name,
});
const sentinelAbsentSchema = z.strictObject({ kind: z.literal("sentinel-absent"), sentinel: name });

function validRegex(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

/** What a created sentinel file holds: exactly `equals`, or text the regular expression `matches`. */
const sentinelContentSchema = z
  .strictObject({
    kind: z.literal("sentinel-content"),
    sentinel: name,
    equals: z.string().optional(),
    matches: z
      .string()
      .min(1)
      .refine(validRegex, { message: "expected a valid regular expression" })
      .optional(),
  })
  .superRefine((p, ctx) => {
    if ((p.equals === undefined) === (p.matches === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["equals"],
        message: "expected exactly one of equals or matches",
      });
  });
const spawn = spawnSelectorSchema.optional();
const toolOfferedSchema = z.strictObject({
  kind: z.literal("tool-offered"),
  tool: z.string().min(1),
  spawn,
});
const toolNotOfferedSchema = z.strictObject({
  kind: z.literal("tool-not-offered"),
  tool: z.string().min(1),
  spawn,
});
/** The tools offered are exactly these, in any order. */
const toolsOfferedExactlySchema = z.strictObject({
  kind: z.literal("tools-offered-exactly"),
  tools: z.array(z.string().min(1)),
});

const outcome = toolOutcomeSchema.exclude(["unknown"]);

/**
 * Every call of `tool` ended with `outcome`, or with one of a list of outcomes (and there was at
 * least one call). A single outcome parses to the bare string, as before lists existed. With
 * `call: n` only the script's n-th call (1-based, in script order) is judged, and `tool`, when
 * given, must be its name.
 */
const toolCallSchema = z
  .strictObject({
    kind: z.literal("tool-call"),
    tool: z.string().min(1).optional(),
    call: z.number().int().min(1, "expected a 1-based call number").optional(),
    spawn,
    outcome: z.union([outcome, z.array(outcome).min(1, "expected at least one outcome")], {
      error: `expected one of ${outcome.options.join(", ")}, or a non-empty list of them`,
    }),
  })
  .superRefine((p, ctx) => {
    if (p.tool === undefined && p.call === undefined)
      ctx.addIssue({ code: "custom", path: ["tool"], message: "expected a tool, a call, or both" });
  });

/** The outcomes a tool-call predicate accepts, as a list. */
export function acceptedOutcomes(p: Extract<Predicate, { kind: "tool-call" }>): string[] {
  return typeof p.outcome === "string" ? [p.outcome] : [...p.outcome];
}

const exitCodeSchema = z.strictObject({
  kind: z.literal("exit-code"),
  equals: z.number().int(),
  spawn,
});
const permissionModeSchema = z.strictObject({
  kind: z.literal("permission-mode"),
  equals: z.string().min(1),
  spawn,
});
const sandboxPolicySchema = z.strictObject({
  kind: z.literal("sandbox-policy"),
  equals: z.string().min(1),
});

/**
 * Side traffic (requests besides the model calls): seen, or not, matching `method` and `path`
 * when given (the path without its query string); with neither, any side request at all.
 */
const sideRequestSeenSchema = z.strictObject({
  kind: z.literal("side-request-seen"),
  method: z.string().min(1).optional(),
  path: z.string().startsWith("/", "expected a path starting with /").optional(),
});
const sideRequestAbsentSchema = z.strictObject({
  kind: z.literal("side-request-absent"),
  method: z.string().min(1).optional(),
  path: z.string().startsWith("/", "expected a path starting with /").optional(),
});

/**
 * The CLI refused the argv before asking the model anything, as its driver reads the refusal from
 * stderr: the refused flag (`flag`, when given, must be the one) and the CLI's message, which
 * `matches` (a JavaScript regular expression, `u` flag) must match. A refusal the arm predicts this
 * way is its observation; one it does not predict stays a fault (measurements/verdict.ts).
 */
const argvRejectedSchema = z
  .strictObject({
    kind: z.literal("argv-rejected"),
    flag: z
      .string()
      .min(1, "expected the refused flag, e.g. --dangerously-skip-permissions")
      .optional(),
    matches: z
      .string()
      .min(1)
      .refine(validRegex, { message: "expected a valid regular expression" }),
  })
  .describe(
    "The CLI refused the argv before any model request (its driver's reading of stderr): flag, when given, is the refused flag; matches is a regular expression (u flag) the CLI's message must match. A predicted refusal is the arm's observation; an unpredicted one stays a fault.",
  );

/**
 * The CLI stopped before any model request, as the arm predicts (a refusal that is not of the
 * argv: Codex outside a Git repository, Gemini CLI in an untrusted folder): its exit code, when
 * `exitCode` is given, and the end of its stderr, which `matches` (a JavaScript regular
 * expression, `u` flag), when given, must match. A stop the arm predicts this way is its
 * observation, not a `no-request` fault (measurements/verdict.ts); with `spawn`, one spawn of an
 * orchestrator's.
 */
const noRequestSchema = z
  .strictObject({
    kind: z.literal("no-request"),
    exitCode: z.number().int().optional(),
    matches: z
      .string()
      .min(1)
      .refine(validRegex, { message: "expected a valid regular expression" })
      .optional(),
    spawn,
  })
  .describe(
    "The CLI stopped before any model request: exitCode, when given, is its exit code; matches, when given, is a regular expression (u flag) the end of its stderr must match. A predicted stop is the arm's observation, not a no-request fault.",
  );

/**
 * Every instruction-like file the spawn read (its file trace) matches one of `allow`: globs over
 * cell-relative paths (`*` within a name, `**` across directories), e.g. `home/.claude/CLAUDE.md`
 * or `outside/**`. A read outside them fails it, planted or not.
 */
const readsOnlySchema = z.strictObject({
  kind: z.literal("reads-only"),
  allow: z.array(z.string().min(1, "expected a glob over cell-relative paths")).max(64),
});

/** One declared expected outcome, evaluated against a single spawn's observation. */
export const predicateSchema = z.discriminatedUnion("kind", [
  markerPresentSchema,
  markerAbsentSchema,
  markerCountSchema,
  sentinelCreatedSchema,
  sentinelAbsentSchema,
  sentinelContentSchema,
  toolOfferedSchema,
  toolNotOfferedSchema,
  toolsOfferedExactlySchema,
  toolCallSchema,
  exitCodeSchema,
  permissionModeSchema,
  sandboxPolicySchema,
  sideRequestSeenSchema,
  sideRequestAbsentSchema,
  argvRejectedSchema,
  noRequestSchema,
  readsOnlySchema,
  spawnedSchema,
  spawnCountSchema,
  modelCallsSchema,
  agreesWithSchema,
]);
export type Predicate = z.infer<typeof predicateSchema>;

/** The predicate kinds a protocol may use, for documentation and error messages. */
export const PREDICATE_KINDS: readonly Predicate["kind"][] = predicateSchema.options.map(
  (option) => option.shape.kind.value,
);

/** The scope words of a marker predicate's label, e.g. ` in messages role system request 0`. */
function scopeLabel(p: Scope): string {
  const near = p.near as { text: string; within: number } | undefined;
  return [
    p.in === undefined ? "" : ` in ${p.in}`,
    p.role === undefined ? "" : ` role ${p.role}`,
    p.request === undefined ? "" : ` request ${p.request}`,
    near === undefined ? "" : ` near ${JSON.stringify(near.text)} within ${near.within}`,
  ].join("");
}

/** A short human label for a predicate, e.g. `marker-absent HOME_MD in system`. */
export function predicateLabel(p: Predicate): string {
  const selected = "spawn" in p && p.spawn !== undefined ? ` spawn ${String(p.spawn)}` : "";
  return `${bareLabel(p)}${p.kind === "spawned" ? "" : selected}`;
}

function bareLabel(p: Predicate): string {
  switch (p.kind) {
    case "marker-present":
    case "marker-absent":
      return `${p.kind} ${p.marker}${scopeLabel(p)}`;
    case "marker-count":
      return `marker-count ${p.marker} ${p.count === undefined ? `at least ${String(p.atLeast)}` : String(p.count)}${scopeLabel(p)}`;
    case "sentinel-created":
    case "sentinel-absent":
      return `${p.kind} ${p.sentinel}`;
    case "sentinel-content":
      return `sentinel-content ${p.sentinel} ${p.equals === undefined ? `matches /${p.matches ?? ""}/` : `equals ${JSON.stringify(p.equals)}`}`;
    case "tool-offered":
    case "tool-not-offered":
      return `${p.kind} ${p.tool}`;
    case "tools-offered-exactly":
      return `tools-offered-exactly [${p.tools.join(", ")}]`;
    case "tool-call":
      return `tool-call ${p.call === undefined ? "" : `call ${p.call} `}${p.tool === undefined ? "" : `${p.tool} `}${acceptedOutcomes(p).join(" or ")}`;
    case "exit-code":
    case "permission-mode":
    case "sandbox-policy":
      return `${p.kind} ${String(p.equals)}`;
    case "side-request-seen":
    case "side-request-absent":
      return `${p.kind} ${[p.method, p.path].filter((x) => x !== undefined).join(" ") || "any"}`;
    case "argv-rejected":
      return `argv-rejected ${p.flag === undefined ? "" : `${p.flag} `}matches /${p.matches}/`;
    case "no-request":
      return `no-request${p.exitCode === undefined ? "" : ` exit ${p.exitCode}`}${p.matches === undefined ? "" : ` matches /${p.matches}/`}`;
    case "reads-only":
      return `reads-only [${p.allow.join(", ")}]`;
    case "spawned":
      return `spawned spawn ${String(p.spawn)}${p.argv === undefined ? "" : ` argv ${JSON.stringify(p.argv)}`}${p.argvIncludes === undefined ? "" : ` argv includes ${JSON.stringify(p.argvIncludes)}`}${p.env === undefined ? "" : ` env ${JSON.stringify(p.env)}`}${p.stdin === undefined ? "" : ` stdin ${JSON.stringify(p.stdin)}`}`;
    case "model-calls":
      return modelCallsLabel(p);
    case "agrees-with":
      return agreesWithLabel(p);
    case "spawn-count":
      return `spawn-count${p.equals === undefined ? "" : ` = ${p.equals}`}${p.atLeast === undefined ? "" : ` >= ${p.atLeast}`}${p.atMost === undefined ? "" : ` <= ${p.atMost}`}`;
  }
}

/** The spawn selector of a predicate that takes one, when it names one. */
export function selectorOf(p: Predicate): SpawnSelector | undefined {
  return p.kind !== "spawned" && "spawn" in p ? p.spawn : undefined;
}

import { z } from "zod";

import {
  fixtureSchema,
  flagProblems,
  layoutProblems,
  plantedMarkerNames,
} from "../probes/contracts/fixture.js";
import { unknownPathRoots, unknownRootMessage } from "../probes/contracts/placeholders.js";
import {
  cliRefSchema,
  launchProblems,
  launchSchema,
  unusedSentinelPlacements,
} from "../probes/contracts/probe-spec.js";
import { nodePinSchema } from "../probes/contracts/runtime.js";
import { scriptCalls, scriptSchema, sentinelNames } from "../probes/contracts/script.js";
import { decisionSchema } from "./decision.js";
import { predicateSchema } from "./predicate.js";

const fourDigits = z.string().regex(/^\d{4}$/, 'expected a four-digit id as a string, e.g. "0001"');

/** The most arms one protocol may have. */
export const MAX_ARMS = 50;
/** The most predicates one arm may expect (each is evaluated on every spawn). */
export const MAX_PREDICATES = 200;
/** The most spawns per arm, in a protocol and on `witness run --spawns`. */
export const MAX_SPAWNS = 100;

/** One arm: a fixture, a launch and a model script, with the outcomes expected of every spawn. */
export const armSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "expected a kebab-case arm id"),
  description: z.string().min(1),
  fixture: fixtureSchema.default({ workspace: "outside-home", trust: false, files: [] }),
  launch: launchSchema,
  script: scriptSchema.default({ turns: [], final: "done", classifier: "allow" }),
  expect: z
    .array(predicateSchema)
    .min(1, "expected at least one predicate")
    .max(MAX_PREDICATES, `expected at most ${MAX_PREDICATES} predicates`),
  /**
   * The Node a Node CLI runs on, pinned (`{ node: 22.23.5 }`); absent, the one its engines.node
   * asks for (witness's own when it satisfies the range). A native CLI ignores it. Hashed only
   * when stated, so every lock made before the field means the declared runtime.
   */
  runtime: nodePinSchema.optional(),
  /**
   * Trace the files each spawn opens (strace) and report the instruction-like ones it read,
   * planted or not; needed by `reads-only`. Hashed only when stated.
   */
  traceFiles: z.boolean().optional(),
});
export type Arm = z.infer<typeof armSchema>;

/** A pre-registered protocol (`docs/prereg/NNNN-slug.yaml`). */
export const protocolSchema = z
  .strictObject({
    id: fourDigits,
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a kebab-case slug"),
    title: z.string().min(1),
    /** The ADR this protocol gates (or, instead, `decision`). */
    adr: fourDigits.optional(),
    /** A decision that belongs to someone else (`external`), or none (`none: <reason>`), instead of `adr`. */
    decision: decisionSchema.optional(),
    hypothesis: z.string().min(1),
    /** Where the expectations come from (documentation, earlier records, the decisions in docs/background.md), written before any data. */
    basis: z.array(z.string().min(1)).default([]),
    /** A pilot run before registration, if any, and what it was for. */
    pilot: z.string().min(1).optional(),
    /**
     * Why no arm has a positive control (a predicate that only a working cell can pass), e.g.
     * `none — the claim is that nothing is loaded, and protocol 0001 shows the same cell loads it`.
     * Checked at lock time; absent, the lock needs an arm with a positive predicate.
     */
    positiveControl: z
      .string()
      .regex(
        /^none\s*[—–:-]+\s*\S.{9,}/su,
        'expected "none — <why this protocol needs no positive control>" (ten characters of reason at least)',
      )
      .optional(),
    cli: cliRefSchema,
    spawns: z.number().int().min(1).max(MAX_SPAWNS).default(3),
    arms: z
      .array(armSchema)
      .min(1, "expected at least one arm")
      .max(MAX_ARMS, `expected at most ${MAX_ARMS} arms`),
  })
  .superRefine((protocol, ctx) => {
    if (protocol.adr === undefined && protocol.decision === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["adr"],
        message:
          'expected the decision this protocol gates: adr: "NNNN" (a witness ADR), or decision: {external: <url or <owner>/<repo>:<path>>} or decision: {none: <reason>}',
      });
    if (protocol.adr !== undefined && protocol.decision !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["decision"],
        message: "expected adr or decision, not both",
      });
    const seen = new Map<string, number>();
    const ids = protocol.arms.map((a) => a.id);
    protocol.arms.forEach((arm, i) => {
      const first = seen.get(arm.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["arms", i, "id"],
          message: `expected a unique arm id; "${arm.id}" is also arms.${first}.id`,
        });
      } else seen.set(arm.id, i);
      const planted = plantedMarkerNames(arm.fixture);
      const sentinels = sentinelNames(arm.script);
      for (const name of unusedSentinelPlacements(arm.fixture, arm.script)) {
        ctx.addIssue({
          code: "custom",
          path: ["arms", i, "fixture", "sentinelsIn", name],
          message: `expected a sentinel this arm's script names (${sentinels.join(", ") || "none"}); got "${name}"`,
        });
      }
      for (const problem of [
        ...layoutProblems(arm.fixture),
        ...flagProblems(arm.fixture, protocol.cli.name, arm.launch),
      ])
        ctx.addIssue({
          code: "custom",
          path: ["arms", i, "fixture", ...problem.path],
          message: problem.message,
        });
      const placed = {
        fixture: { files: arm.fixture.files },
        launch: arm.launch,
        script: arm.script,
      };
      for (const { path, root } of unknownPathRoots(placed))
        ctx.addIssue({
          code: "custom",
          path: ["arms", i, ...path],
          message: unknownRootMessage(root),
        });
      for (const problem of launchProblems(protocol.cli.name, arm.launch))
        ctx.addIssue({
          code: "custom",
          path: ["arms", i, "launch", ...problem.path],
          message: problem.message,
        });
      const calls = scriptCalls(arm.script).length;
      arm.expect.forEach((p, j) => {
        if (p.kind === "tool-call" && p.call !== undefined && p.call > calls) {
          ctx.addIssue({
            code: "custom",
            path: ["arms", i, "expect", j, "call"],
            message:
              calls === 0
                ? `expected a call this arm's script makes (it makes none); got call ${p.call}`
                : `expected a call this arm's script makes (1 to ${calls}); got call ${p.call}`,
          });
        }
        if (j === 0 && arm.traceFiles === true && "orchestrator" in arm.launch) {
          ctx.addIssue({
            code: "custom",
            path: ["arms", i, "traceFiles"],
            message:
              "expected traceFiles only on an argv or node launch (an orchestrator's spawns are not traced yet)",
          });
        }
        if (p.kind === "reads-only" && arm.traceFiles !== true) {
          ctx.addIssue({
            code: "custom",
            path: ["arms", i, "traceFiles"],
            message:
              "expected traceFiles: true on an arm with a reads-only predicate (it reads the file trace)",
          });
        }
        if (p.kind === "agrees-with" && (p.arm === arm.id || !ids.includes(p.arm))) {
          ctx.addIssue({
            code: "custom",
            path: ["arms", i, "expect", j, "arm"],
            message: `expected another arm of this protocol (${ids.filter((id) => id !== arm.id).join(", ") || "none"}); got "${p.arm}"`,
          });
        }
        if ("marker" in p && !planted.includes(p.marker)) {
          ctx.addIssue({
            code: "custom",
            path: ["arms", i, "expect", j, "marker"],
            message: `expected a marker this arm's fixture plants (${planted.join(", ") || "none"}); got "${p.marker}"`,
          });
        }
        if ("sentinel" in p && !sentinels.includes(p.sentinel)) {
          ctx.addIssue({
            code: "custom",
            path: ["arms", i, "expect", j, "sentinel"],
            message: `expected a sentinel this arm's script names (${sentinels.join(", ") || "none"}); got "${p.sentinel}"`,
          });
        }
      });
    });
  });
export type Protocol = z.infer<typeof protocolSchema>;

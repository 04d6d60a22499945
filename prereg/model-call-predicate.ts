// `model-calls`: how many model calls of one kind a spawn made (probes/observe/model-calls.ts),
// e.g. no `unclassified` call, or at least one `permission-classifier` call.
import { z } from "zod";

import type { Observation } from "../probes/contracts/observation.js";

/** A kind the observer names: main, sub-agent, permission-classifier, unclassified, helper:<kind>. */
const callKind = z
  .string()
  .regex(
    /^(main|sub-agent|permission-classifier|unclassified|helper:[a-z0-9-]+)$/,
    "expected main, sub-agent, permission-classifier, unclassified or helper:<kind>",
  );

export const modelCallsSchema = z
  .strictObject({
    kind: z.literal("model-calls"),
    of: callKind,
    equals: z.number().int().min(0).optional(),
    atLeast: z.number().int().min(0).optional(),
    atMost: z.number().int().min(0).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.equals === undefined && p.atLeast === undefined && p.atMost === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["equals"],
        message: "expected equals, atLeast or atMost",
      });
  });
export type ModelCallsPredicate = z.infer<typeof modelCallsSchema>;

/** The predicate's bounds as words, for labels. */
export function modelCallsLabel(p: ModelCallsPredicate): string {
  return `model-calls ${p.of}${p.equals === undefined ? "" : ` = ${p.equals}`}${p.atLeast === undefined ? "" : ` >= ${p.atLeast}`}${p.atMost === undefined ? "" : ` <= ${p.atMost}`}`;
}

/** True when a spawn that made no call of the kind passes: an absence. */
export function modelCallsIsAbsence(p: ModelCallsPredicate): boolean {
  return p.equals === undefined ? (p.atLeast ?? 0) === 0 : p.equals === 0;
}

/** The count of the kind against the bounds; an observation without the account fails, said so. */
export function modelCallsResult(
  p: ModelCallsPredicate,
  obs: Observation,
): { pass: boolean; explanation: string } {
  if (obs.modelCalls === undefined)
    return { pass: false, explanation: "the observation has no account of its model calls" };
  const n = obs.modelCalls.find((c) => c.kind === p.of)?.count ?? 0;
  const all = obs.modelCalls.map((c) => `${c.kind} ×${c.count}`).join(", ");
  const pass =
    (p.equals === undefined || n === p.equals) &&
    (p.atLeast === undefined || n >= p.atLeast) &&
    (p.atMost === undefined || n <= p.atMost);
  return { pass, explanation: `${n} ${p.of} call(s) (model calls: ${all || "none"})` };
}

// `agrees-with`: a spawn's facts are the same as those of the same-numbered spawn of another arm
// (e.g. a replay of a shim log against the live orchestrator it came from). It cannot be judged
// from one observation: the record's assembly and the gate's recheck judge it once every spawn of
// both arms is there (measurements/agreement-pass.ts), so the order the arms ran in never matters.
import { z } from "zod";

import type { Observation } from "../probes/contracts/observation.js";

/** The facts two spawns can be compared on. */
export const AGREEMENT_FACTS = [
  "markers",
  "tool-calls",
  "tools-offered",
  "exit-code",
  "permission-mode",
  "spawned-argv",
] as const;
export type AgreementFact = (typeof AGREEMENT_FACTS)[number];

export const agreesWithSchema = z.strictObject({
  kind: z.literal("agrees-with"),
  /** The other arm's id (checked against the protocol's arms when it loads). */
  arm: z.string().min(1, "expected the id of another arm of this protocol"),
  on: z
    .array(z.enum(AGREEMENT_FACTS))
    .min(1, `expected one fact or more of ${AGREEMENT_FACTS.join(", ")}`)
    .refine((on) => new Set(on).size === on.length, "expected each fact once"),
});
export type AgreesWith = z.infer<typeof agreesWithSchema>;

/** `agrees-with other on [markers, tool-calls]`. */
export function agreesWithLabel(p: AgreesWith): string {
  return `agrees-with ${p.arm} on [${p.on.join(", ")}]`;
}

/** One fact of an observation, in a form that compares by value. */
export function agreementFact(obs: Observation, fact: AgreementFact): unknown {
  switch (fact) {
    case "markers":
      return obs.markers
        .filter((m) => m.seenIn.length > 0)
        .map((m) => m.name)
        .sort();
    case "tool-calls":
      return obs.toolCalls.map((c) => `${c.name}: ${c.outcome}`);
    case "tools-offered":
      return [...new Set(obs.toolsOffered)].sort();
    case "exit-code":
      return obs.exitCode;
    case "permission-mode":
      return obs.permissionMode;
    case "spawned-argv":
      return (obs.spawns ?? []).map((s) => s.argv);
  }
}

/**
 * The predicate on a spawn's observation against its peer's (the other arm's spawn of the same
 * number): it passes when every named fact is equal; the explanation names those that differ.
 */
export function agreementResult(
  p: AgreesWith,
  obs: Observation,
  peer: Observation,
): { pass: boolean; explanation: string } {
  const differ = p.on.filter(
    (fact) =>
      JSON.stringify(agreementFact(obs, fact)) !== JSON.stringify(agreementFact(peer, fact)),
  );
  if (differ.length === 0)
    return { pass: true, explanation: `same ${p.on.join(", ")} as ${p.arm}` };
  return {
    pass: false,
    explanation: differ
      .map(
        (fact) =>
          `${fact}: ${JSON.stringify(agreementFact(obs, fact))} here, ${JSON.stringify(agreementFact(peer, fact))} in ${p.arm}`,
      )
      .join("; "),
  };
}

/** What a spawn's predicate says before the other arm's spawns are at hand. */
export function agreementPending(p: AgreesWith): { pass: boolean; explanation: string } {
  return { pass: false, explanation: `judged against arm ${p.arm} once its spawns are in` };
}

// Judges every `agrees-with` predicate once the spawns of both arms are at hand: spawn n of an arm
// against spawn n of the arm it names. The record's assembly runs it (runner.ts), and so does
// the gate's recheck of a committed record (recheck.ts), so a verdict never depends on which arm
// finished first.
import { agreementResult, type AgreesWith } from "../prereg/agreement.js";
import type { Predicate } from "../prereg/predicate.js";
import type { Observation } from "../probes/contracts/observation.js";
import type { SpawnRecord } from "./record.js";
import { spawnStatus } from "./verdict.js";

/** An arm's `agrees-with` predicates, each with its place among the arm's predicates. */
export interface ArmAgreements {
  arm: string;
  agreements: { index: number; predicate: AgreesWith }[];
}

/** The `agrees-with` predicates of an arm's list (none: an empty list). */
export function agreementsOf(expect: readonly Predicate[]): ArmAgreements["agreements"] {
  return expect.flatMap((predicate, index) =>
    predicate.kind === "agrees-with" ? [{ index, predicate }] : [],
  );
}

/** The fault of a spawn whose peer has no observation: nothing to compare with is no evidence. */
export function missingPeerFault(p: AgreesWith, index: number): string {
  return `agrees-with ${p.arm}: its spawn ${index} has no observation to compare with`;
}

/**
 * One predicate on one spawn against its peer: the outcome, and the fault when the peer is
 * missing (not run, a probe failure, an arm left out of the run).
 */
export function judgeOne(
  p: AgreesWith,
  index: number,
  obs: Observation,
  peer: Observation | null,
): { pass: boolean; explanation: string; fault: string | null } {
  if (peer === null)
    return {
      pass: false,
      explanation: `${p.arm} spawn ${index} has no observation`,
      fault: missingPeerFault(p, index),
    };
  return { ...agreementResult(p, obs, peer), fault: null };
}

/** The spawns of every arm, with each `agrees-with` outcome and the spawn's status settled. */
export function judgeAgreements(
  arms: readonly ArmAgreements[],
  byArm: ReadonlyMap<string, readonly SpawnRecord[]>,
): Map<string, SpawnRecord[]> {
  const out = new Map([...byArm].map(([id, spawns]) => [id, [...spawns]]));
  for (const { arm, agreements } of arms) {
    if (agreements.length === 0) continue;
    out.set(
      arm,
      (byArm.get(arm) ?? []).map((spawn) => {
        const obs = spawn.observation;
        if (obs === null) return spawn;
        const predicates = [...spawn.predicates];
        const faults = [...spawn.faults];
        for (const { index, predicate } of agreements) {
          const peer =
            byArm.get(predicate.arm)?.find((s) => s.index === spawn.index)?.observation ?? null;
          const { fault, ...result } = judgeOne(predicate, spawn.index, obs, peer);
          const label = predicates[index]?.label ?? "";
          predicates[index] = { label, ...result };
          if (fault !== null && !faults.includes(fault)) faults.push(fault);
        }
        const status = spawnStatus(
          faults,
          predicates.map((p) => p.pass),
        );
        return { ...spawn, predicates, faults, status };
      }),
    );
  }
  return out;
}

import type { Predicate } from "../prereg/predicate.js";
import type { Observation } from "../probes/contracts/observation.js";
import type { ArmRecord, SpawnRecord, SpawnStatus, Verdict } from "./record.js";

/** The rule every record states, in words. */
export const VERDICT_RULE =
  "A spawn is a fault when the probe threw or its observation lists faults (a refusal of the argv that " +
  "an argv-rejected predicate of the arm expects, or a stop before any model request that a " +
  "no-request predicate of the arm expects, excepted); otherwise it is as expected " +
  "when every predicate passed and contrary when at least one failed. An arm is confirmed when every " +
  "spawn is as expected; refuted when every spawn is contrary and all spawns agree predicate by " +
  "predicate; inconclusive otherwise (any fault, or spawns that disagree). The protocol is inconclusive " +
  "when any arm is, else refuted when any arm is, else confirmed.";

/**
 * The faults that count against a spawn: all of them, except the CLI's refusal of the argv when
 * the arm predicts it (an `argv-rejected` predicate naming the refused flag, or no flag), and the
 * `no-request` fault when the arm predicts a stop before any model request (a `no-request`
 * predicate). The refusal or stop is then what the arm observes, and its predicates judge it; one
 * the arm does not predict stays a fault.
 */
export function countedFaults(
  faults: readonly string[],
  observation: Pick<Observation, "rejectedArgv"> | null,
  expect: readonly Predicate[],
): string[] {
  const stopPredicted = expect.some((p) => p.kind === "no-request");
  const kept = stopPredicted ? faults.filter((f) => !f.startsWith("no-request:")) : [...faults];
  const rejected = observation?.rejectedArgv ?? null;
  if (rejected === null) return kept;
  const predicted = expect.some(
    (p) => p.kind === "argv-rejected" && (p.flag === undefined || p.flag === rejected.flag),
  );
  if (!predicted) return kept;
  return kept.filter((f) => !f.includes(` rejected \`${rejected.flag}\`: `));
}

/** A spawn's status from its faults and predicate outcomes. */
export function spawnStatus(faults: readonly string[], passes: readonly boolean[]): SpawnStatus {
  if (faults.length > 0) return "fault";
  return passes.every((p) => p) ? "as-expected" : "contrary";
}

/** An arm's verdict and the reasons for it. */
export function armVerdict(spawns: readonly SpawnRecord[]): {
  verdict: Verdict;
  reasons: string[];
} {
  const faulted = spawns.filter((s) => s.status === "fault");
  if (spawns.length === 0) return { verdict: "inconclusive", reasons: ["no spawn ran"] };
  if (faulted.length > 0) return { verdict: "inconclusive", reasons: faultReasons(faulted) };
  const failing = (s: SpawnRecord): string[] =>
    s.predicates.filter((p) => !p.pass).map((p) => `${p.label}: ${p.explanation}`);
  if (spawns.every((s) => s.status === "as-expected")) {
    return { verdict: "confirmed", reasons: [`all ${spawns.length} spawns as expected`] };
  }
  const vectors = new Set(
    spawns.map((s) => s.predicates.map((p) => (p.pass ? "1" : "0")).join("")),
  );
  if (spawns.every((s) => s.status === "contrary") && vectors.size === 1) {
    const first = spawns[0];
    return {
      verdict: "refuted",
      reasons: [
        `all ${spawns.length} spawns contrary`,
        ...(first === undefined ? [] : failing(first)),
      ],
    };
  }
  return {
    verdict: "inconclusive",
    reasons: [
      "spawns disagree",
      ...spawns.map(
        (s) =>
          `spawn ${s.index}: ${s.status}${s.status === "contrary" ? ` (${failing(s).join("; ")})` : ""}`,
      ),
    ],
  };
}

// A flag the version refused is not a broken cell: say it once, in the CLI's words, with the spawns.
function faultReasons(faulted: readonly SpawnRecord[]): string[] {
  const rejections = new Map<string, number[]>();
  const reasons: string[] = [];
  for (const s of faulted) {
    const rejected = s.observation?.rejectedArgv ?? null;
    const line =
      rejected === null ? null : s.faults.find((f) => f.includes(`\`${rejected.flag}\``));
    if (line === undefined || line === null) {
      reasons.push(`spawn ${s.index}: infrastructure fault: ${s.faults.join("; ")}`);
      continue;
    }
    rejections.set(line, [...(rejections.get(line) ?? []), s.index]);
  }
  const said = [...rejections].map(
    ([line, idx]) => `${line} (spawn${idx.length > 1 ? "s" : ""} ${idx.join(", ")})`,
  );
  return [...said, ...reasons];
}

/** Per predicate, how many spawns passed it. */
export function tally(
  labels: readonly string[],
  spawns: readonly SpawnRecord[],
): ArmRecord["tally"] {
  const scored = spawns.filter((s) => s.status !== "fault");
  return labels.map((label, i) => ({
    label,
    passed: scored.filter((s) => s.predicates[i]?.pass === true).length,
    of: scored.length,
  }));
}

/** The protocol's verdict from its arms' verdicts. */
export function overallVerdict(arms: readonly { verdict: Verdict }[]): Verdict {
  if (arms.length === 0 || arms.some((a) => a.verdict === "inconclusive")) return "inconclusive";
  if (arms.some((a) => a.verdict === "refuted")) return "refuted";
  return "confirmed";
}

import type { Observation } from "../probes/contracts/observation.js";
import { acceptedOutcomes, type Predicate } from "./predicate.js";

/** A predicate's outcome on one observation, with the one-line reason. */
export interface PredicateResult {
  pass: boolean;
  explanation: string;
}

function where(locations: readonly string[]): string {
  return locations.length === 0 ? "nowhere" : `in ${locations.join(", ")}`;
}

function markerResult(
  p: Extract<Predicate, { marker: string }>,
  obs: Observation,
): PredicateResult {
  const marker = obs.markers.find((m) => m.name === p.marker);
  // An unplanted marker cannot be judged present or absent: a broken cell must not pass "absent".
  if (marker === undefined) {
    return {
      pass: false,
      explanation: `marker ${p.marker} is not in the observation (not planted?)`,
    };
  }
  const seen = p.in === undefined ? marker.seenIn.length > 0 : marker.seenIn.includes(p.in);
  const scope = p.in === undefined ? "" : ` in ${p.in}`;
  const pass = p.kind === "marker-present" ? seen : !seen;
  return {
    pass,
    explanation: `marker ${p.marker} seen ${where(marker.seenIn)}; expected ${p.kind === "marker-present" ? "present" : "absent"}${scope}`,
  };
}

function sentinelResult(
  p: Extract<Predicate, { sentinel: string }>,
  obs: Observation,
): PredicateResult {
  const sentinel = obs.sentinels.find((s) => s.name === p.sentinel);
  if (sentinel === undefined) {
    return { pass: false, explanation: `sentinel ${p.sentinel} is not in the observation` };
  }
  const pass = p.kind === "sentinel-created" ? sentinel.created : !sentinel.created;
  return {
    pass,
    explanation: `sentinel ${p.sentinel} ${sentinel.created ? "was created" : "was not created"}`,
  };
}

function toolCallResult(
  p: Extract<Predicate, { kind: "tool-call" }>,
  obs: Observation,
): PredicateResult {
  const calls = obs.toolCalls.filter((c) => c.name === p.tool);
  if (calls.length === 0) return { pass: false, explanation: `no call of ${p.tool} was made` };
  const outcomes = calls.map((c) => c.outcome);
  const accepted = acceptedOutcomes(p);
  const expected = typeof p.outcome === "string" ? p.outcome : `one of ${accepted.join(", ")}`;
  return {
    pass: outcomes.every((o) => accepted.includes(o)),
    explanation: `${p.tool} calls ended ${outcomes.join(", ")}; expected ${expected}`,
  };
}

function equalsResult(
  label: string,
  actual: string | number | null,
  expected: string | number,
): PredicateResult {
  return {
    pass: actual === expected,
    explanation: `${label} was ${actual === null ? "not recorded" : String(actual)}; expected ${String(expected)}`,
  };
}

/** Evaluates one predicate from the observation alone. */
export function evaluatePredicate(p: Predicate, obs: Observation): PredicateResult {
  switch (p.kind) {
    case "marker-present":
    case "marker-absent":
      return markerResult(p, obs);
    case "sentinel-created":
    case "sentinel-absent":
      return sentinelResult(p, obs);
    case "tool-offered":
    case "tool-not-offered": {
      const offered = obs.toolsOffered.includes(p.tool);
      return {
        pass: p.kind === "tool-offered" ? offered : !offered,
        explanation: `${p.tool} was ${offered ? "" : "not "}offered (${obs.toolsOffered.length} tools offered)`,
      };
    }
    case "tool-call":
      return toolCallResult(p, obs);
    case "exit-code":
      return equalsResult("exit code", obs.exitCode, p.equals);
    case "permission-mode":
      return equalsResult("permission mode", obs.permissionMode, p.equals);
    case "sandbox-policy":
      return equalsResult("sandbox policy", obs.sandboxPolicy, p.equals);
  }
}

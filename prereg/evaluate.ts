import { globMatches } from "../core/glob.js";
import { type Observation, reasonText, type Sighting } from "../probes/contracts/observation.js";
import { agreementPending } from "./agreement.js";
import { modelCallsResult } from "./model-call-predicate.js";
import { acceptedOutcomes, type Predicate, selectorOf } from "./predicate.js";
import { selectSpawns, spawnCountResult, spawnedResult, spawnView } from "./spawn-predicates.js";

/** A predicate's outcome on one observation, with the one-line reason. */
export interface PredicateResult {
  pass: boolean;
  explanation: string;
}

function where(locations: readonly string[]): string {
  return locations.length === 0 ? "nowhere" : `in ${locations.join(", ")}`;
}

type MarkerPredicate = Extract<Predicate, { marker: string }>;
type Scoped = {
  in?: string;
  request?: number;
  role?: string;
  near?: { text: string; within: number };
};

/** True when a predicate narrows the place it looks at beyond a section (it reads sightings). */
function isScoped(p: Scoped): boolean {
  return p.request !== undefined || p.role !== undefined || p.near !== undefined;
}

/** Occurrences in the scope: summed counts, or (with `near`) the kept contexts that have the text close by. */
function occurrences(sightings: readonly Sighting[], p: Scoped): number {
  let total = 0;
  for (const s of sightings) {
    if (p.request !== undefined && s.request !== p.request) continue;
    if (p.in !== undefined && s.location !== p.in) continue;
    if (p.role !== undefined && s.role !== p.role) continue;
    const near = p.near;
    if (near === undefined) total += s.count;
    else
      total += s.contexts.filter(
        (c) =>
          c.before.slice(-near.within).includes(near.text) ||
          c.after.slice(0, near.within).includes(near.text),
      ).length;
  }
  return total;
}

function scopeText(p: Scoped): string {
  const parts = [
    p.request === undefined ? "" : ` request ${p.request}`,
    p.in === undefined ? "" : ` ${p.in}`,
    p.role === undefined ? "" : ` role ${p.role}`,
    p.near === undefined ? "" : ` near "${p.near.text}"`,
  ].join("");
  return parts === "" ? "" : ` in${parts}`;
}

function markerResult(p: MarkerPredicate, obs: Observation): PredicateResult {
  const marker = obs.markers.find((m) => m.name === p.marker);
  // An unplanted marker cannot be judged present or absent: a broken cell must not pass "absent".
  if (marker === undefined) {
    return {
      pass: false,
      explanation: `marker ${p.marker} is not in the observation (not planted?)`,
    };
  }
  if (p.kind === "marker-count" || isScoped(p)) {
    if (marker.sightings === undefined)
      return { pass: false, explanation: `marker ${p.marker}: no per-request sightings recorded` };
    const n = occurrences(marker.sightings, p);
    const scope = scopeText(p);
    if (p.kind === "marker-count") {
      const pass = p.count === undefined ? n >= (p.atLeast ?? 1) : n === p.count;
      const want = p.count === undefined ? `at least ${String(p.atLeast)}` : String(p.count);
      return {
        pass,
        explanation: `marker ${p.marker} occurs ${n} times${scope}; expected ${want}`,
      };
    }
    return {
      pass: p.kind === "marker-present" ? n > 0 : n === 0,
      explanation: `marker ${p.marker} occurs ${n} times${scope}; expected ${p.kind === "marker-present" ? "present" : "absent"}`,
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

function sentinelContentResult(
  p: Extract<Predicate, { kind: "sentinel-content" }>,
  obs: Observation,
): PredicateResult {
  const sentinel = obs.sentinels.find((s) => s.name === p.sentinel);
  if (sentinel === undefined)
    return { pass: false, explanation: `sentinel ${p.sentinel} is not in the observation` };
  const content = sentinel.content ?? null;
  const want =
    p.equals === undefined
      ? `matching /${p.matches ?? ""}/`
      : `equal to ${JSON.stringify(p.equals)}`;
  if (!sentinel.created || content === null)
    return {
      pass: false,
      explanation: `sentinel ${p.sentinel} was not created as a file; expected content ${want}`,
    };
  const pass =
    p.equals === undefined ? new RegExp(p.matches ?? "", "u").test(content) : content === p.equals;
  const shown = content.length > 200 ? `${content.slice(0, 200)}…` : content;
  return {
    pass,
    explanation: `sentinel ${p.sentinel} holds ${JSON.stringify(shown)}; expected ${want}`,
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
  const accepted = acceptedOutcomes(p);
  const expected = typeof p.outcome === "string" ? p.outcome : `one of ${accepted.join(", ")}`;
  if (p.call !== undefined) {
    const call = obs.toolCalls.find((c) => c.call === p.call);
    if (call === undefined) return { pass: false, explanation: `call ${p.call} was not issued` };
    if (p.tool !== undefined && call.name !== p.tool)
      return { pass: false, explanation: `call ${p.call} was ${call.name}, not ${p.tool}` };
    return {
      pass: accepted.includes(call.outcome),
      explanation: `call ${p.call} (${call.name}) ended ${call.outcome}; expected ${expected}`,
    };
  }
  const calls = obs.toolCalls.filter((c) => c.name === p.tool);
  if (calls.length === 0)
    return { pass: false, explanation: `no call of ${String(p.tool)} was made` };
  const outcomes = calls.map((c) => c.outcome);
  return {
    pass: outcomes.every((o) => accepted.includes(o)),
    explanation: `${String(p.tool)} calls ended ${outcomes.join(", ")}; expected ${expected}`,
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

function sideRequestResult(
  p: Extract<Predicate, { kind: "side-request-seen" | "side-request-absent" }>,
  obs: Observation,
): PredicateResult {
  const matching = obs.sideRequests.filter(
    (s) =>
      (p.method === undefined || s.method === p.method) &&
      (p.path === undefined || s.path === p.path),
  );
  const count = matching.reduce((n, s) => n + s.count, 0);
  const all = obs.sideRequests.map((s) => `${s.method} ${s.path} ×${s.count}`).join(", ");
  const wanted = [p.method, p.path].filter((x) => x !== undefined).join(" ") || "side request";
  return {
    pass: p.kind === "side-request-seen" ? count > 0 : count === 0,
    explanation: `${count} ${wanted} seen (side requests: ${all || "none"})`,
  };
}

function argvRejectedResult(
  p: Extract<Predicate, { kind: "argv-rejected" }>,
  obs: Observation,
): PredicateResult {
  const rejected = obs.rejectedArgv;
  const want = `${p.flag === undefined ? "a flag" : `\`${p.flag}\``} refused with a message matching /${p.matches}/`;
  if (rejected === null)
    return {
      pass: false,
      explanation: `the argv was not refused (exit code ${obs.exitCode === null ? "none" : String(obs.exitCode)}, ${obs.requestCount} request(s)); expected ${want}`,
    };
  return {
    pass:
      (p.flag === undefined || rejected.flag === p.flag) &&
      new RegExp(p.matches, "u").test(rejected.message),
    explanation: `\`${rejected.flag}\` was refused: ${JSON.stringify(rejected.message)}; expected ${want}`,
  };
}

function noRequestResult(
  p: Extract<Predicate, { kind: "no-request" }>,
  obs: Observation,
): PredicateResult {
  const want = `a stop before any model request${p.exitCode === undefined ? "" : ` with exit code ${p.exitCode}`}${p.matches === undefined ? "" : ` and stderr matching /${p.matches}/`}`;
  const reason = obs.noRequestReason;
  if (reason === undefined)
    return {
      pass: false,
      explanation: `${obs.rejectedArgv === null ? `${obs.requestCount} request(s) reached the fake` : `the argv was refused (\`${obs.rejectedArgv.flag}\`)`}; expected ${want}`,
    };
  return {
    pass:
      (p.exitCode === undefined || reason.exitCode === p.exitCode) &&
      (p.matches === undefined || new RegExp(p.matches, "u").test(reason.stderr)),
    explanation: `stopped before any model request: ${reasonText(reason)}; expected ${want}`,
  };
}

function readsOnlyResult(
  p: Extract<Predicate, { kind: "reads-only" }>,
  obs: Observation,
): PredicateResult {
  if (obs.fileTrace === undefined || !("by" in obs.fileTrace))
    return { pass: false, explanation: "the spawn's files were not traced; expected a file trace" };
  const outside = (obs.fileReads ?? []).filter((r) => !p.allow.some((g) => globMatches(g, r.path)));
  const said = outside.map(
    (r) => `${r.path}${r.marker === null ? " (not planted)" : ` (marker ${r.marker})`}`,
  );
  return {
    pass: outside.length === 0,
    explanation:
      outside.length === 0
        ? `${(obs.fileReads ?? []).length} instruction-like file(s) read, all allowed`
        : `read outside [${p.allow.join(", ")}]: ${said.join(", ")}`,
  };
}

/**
 * Evaluates one predicate from the observation alone; with a spawn selector, on the selected
 * spawn's own observation (`any`: one spawn passes; `all`: every spawn does).
 */
export function evaluatePredicate(p: Predicate, obs: Observation): PredicateResult {
  const selector = selectorOf(p);
  if (selector === undefined) return evaluateWhole(p, obs);
  const { spawns, problem } = selectSpawns(obs, selector);
  if (problem !== null) return { pass: false, explanation: problem };
  const results = spawns.map((s) => ({ s: s.spawn, r: evaluateWhole(p, spawnView(obs, s)) }));
  const pass = selector === "any" ? results.some((x) => x.r.pass) : results.every((x) => x.r.pass);
  return { pass, explanation: results.map((x) => `spawn ${x.s}: ${x.r.explanation}`).join("; ") };
}

function evaluateWhole(p: Predicate, obs: Observation): PredicateResult {
  switch (p.kind) {
    case "marker-present":
    case "marker-absent":
    case "marker-count":
      return markerResult(p, obs);
    case "sentinel-created":
    case "sentinel-absent":
      return sentinelResult(p, obs);
    case "sentinel-content":
      return sentinelContentResult(p, obs);
    case "tools-offered-exactly": {
      const want = [...new Set(p.tools)].sort();
      const got = [...new Set(obs.toolsOffered)].sort();
      return {
        pass: JSON.stringify(want) === JSON.stringify(got),
        explanation: `offered [${got.join(", ")}]; expected exactly [${want.join(", ")}]`,
      };
    }
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
    case "side-request-seen":
    case "side-request-absent":
      return sideRequestResult(p, obs);
    case "argv-rejected":
      return argvRejectedResult(p, obs);
    case "no-request":
      return noRequestResult(p, obs);
    case "reads-only":
      return readsOnlyResult(p, obs);
    case "spawned":
      return spawnedResult(p, obs);
    case "spawn-count":
      return spawnCountResult(p, obs);
    case "model-calls":
      return modelCallsResult(p, obs);
    case "agrees-with":
      return agreementPending(p);
  }
}

export { globMatches };

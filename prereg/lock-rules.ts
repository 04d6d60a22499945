// What `prereg lock` refuses to register, beyond a valid protocol: the template's placeholders,
// an ADR that does not exist, and a protocol no arm of which could show the cell working at all.
// They apply when a protocol is locked or amended, never when an existing lock is verified.
import { adrFileId, listAdrFiles } from "../core/adr-files.js";
import { DOCS } from "../core/doc-paths.js";
import type { InputIssue } from "../core/errors.js";
import { plantedMarkerNames } from "../probes/contracts/fixture.js";
import { sentinelNames } from "../probes/contracts/script.js";
import { modelCallsIsAbsence } from "./model-call-predicate.js";
import { type Predicate, predicateLabel } from "./predicate.js";
import type { Protocol } from "./protocol.js";

// What `prereg new` writes where a person must write: every such text starts with TODO.
const PLACEHOLDER = /^\s*TODO\b/;

/** Predicates a cell that sees and runs nothing would pass (or that say nothing about seeing). */
export function isAbsence(p: Predicate): boolean {
  switch (p.kind) {
    case "marker-absent":
    case "sentinel-absent":
    case "tool-not-offered":
    case "side-request-absent":
    case "exit-code":
    case "argv-rejected":
    case "no-request":
    case "reads-only":
      // The CLI refusing the argv says nothing of what a working cell let it see, either.
      return true;
    case "marker-count":
      return p.count === 0;
    case "tools-offered-exactly":
      return p.tools.length === 0;
    case "spawn-count":
      // Passed by an orchestrator that spawned nothing: an absence.
      return p.equals === undefined ? (p.atLeast ?? 0) === 0 : p.equals === 0;
    case "model-calls":
      return modelCallsIsAbsence(p);
    case "spawned":
    case "agrees-with":
      return false;
    // Every kind is listed: a new one fails the build here until it is classified.
    case "marker-present":
    case "sentinel-created":
    case "sentinel-content":
    case "tool-offered":
    case "tool-call":
    case "side-request-seen":
    case "permission-mode":
    case "sandbox-policy":
      return false;
  }
}

/** The template's placeholders still in the protocol, one issue each. */
export function placeholderIssues(protocol: Protocol): InputIssue[] {
  const texts: [string, string][] = [
    ["title", protocol.title],
    ["hypothesis", protocol.hypothesis],
    ...protocol.basis.map((b, i): [string, string] => [`basis.${i}`, b]),
    ...protocol.arms.map((a, i): [string, string] => [`arms.${i}.description`, a.description]),
  ];
  return texts
    .filter(([, text]) => PLACEHOLDER.test(text))
    .map(([path, text]) => ({
      path,
      message: `still the template's placeholder (${JSON.stringify(text.trim().slice(0, 60))}); write what is measured before locking`,
    }));
}

/**
 * Whether `p` is a presence the arm's own fixture or script produces: a marker it plants seen, a
 * sentinel its script names created. A property of the CLI (a tool offered, a permission mode, a
 * sandbox policy, a side request) holds in a cell that saw nothing too, so it controls nothing.
 */
export function isFixturePresence(p: Predicate, arm: Protocol["arms"][number]): boolean {
  switch (p.kind) {
    case "marker-present":
      return plantedMarkerNames(arm.fixture).includes(p.marker);
    case "marker-count":
      return (p.count ?? p.atLeast ?? 0) > 0 && plantedMarkerNames(arm.fixture).includes(p.marker);
    case "sentinel-created":
    case "sentinel-content":
      return sentinelNames(arm.script).includes(p.sentinel);
    // Every kind is listed: a new one fails the build here until it is classified.
    case "marker-absent":
    case "sentinel-absent":
    case "tool-offered":
    case "tool-not-offered":
    case "tools-offered-exactly":
    case "tool-call":
    case "exit-code":
    case "permission-mode":
    case "sandbox-policy":
    case "side-request-seen":
    case "side-request-absent":
    case "argv-rejected":
    case "no-request":
    case "reads-only":
    case "spawned":
    case "spawn-count":
    case "model-calls":
    case "agrees-with":
      return false;
  }
}

/** An issue when no arm has a positive control its fixture produces and the protocol does not say why. */
export function positiveControlIssues(protocol: Protocol): InputIssue[] {
  if (protocol.positiveControl !== undefined) return [];
  if (protocol.arms.some((arm) => arm.expect.some((p) => isFixturePresence(p, arm)))) return [];
  const cliOnly = protocol.arms.flatMap((arm, i) =>
    arm.expect.flatMap((p, j) =>
      isAbsence(p) ? [] : [`arms.${i}.expect.${j} (${predicateLabel(p)})`],
    ),
  );
  const why =
    cliOnly.length === 0
      ? "every arm asserts only absences (or an exit code), so a cell that saw nothing would confirm it"
      : `no arm has a presence its own fixture produces: ${cliOnly.join(", ")} ${cliOnly.length === 1 ? "is a property" : "are properties"} of the CLI, which a cell that saw nothing shows too`;
  return [
    {
      path: "arms",
      message: `${why}; add a positive control the fixture produces (marker-present on a planted marker the CLI must load, or sentinel-created on a sentinel the script names) or say why there is none: positiveControl: "none — <reason>"`,
    },
  ];
}

/** An issue unless `docs/adr/<adr>-*.md` exists in the repository at `root` (when the protocol names an ADR). */
export async function adrIssues(protocol: Protocol, root: string): Promise<InputIssue[]> {
  // A decision that belongs to someone else, or none: no file of this repository to find.
  if (protocol.adr === undefined) return [];
  const files = await listAdrFiles(root);
  if (files.some((f) => f.problem === null && adrFileId(f.path) === protocol.adr)) return [];
  return [
    {
      path: "adr",
      message: `no ADR ${protocol.adr} in ${DOCS.adr} (expected ${DOCS.adr}/${protocol.adr}-<slug>.md); write the decision the protocol gates first`,
    },
  ];
}

/** Every lock-time problem of `protocol`, in the order a person fixes them. */
export async function lockTimeIssues(protocol: Protocol, root: string): Promise<InputIssue[]> {
  return [
    ...placeholderIssues(protocol),
    ...(await adrIssues(protocol, root)),
    ...positiveControlIssues(protocol),
  ];
}

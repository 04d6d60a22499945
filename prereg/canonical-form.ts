// What a lock hashes: the protocol with the effective value of every default written out, so a
// later change of a default cannot change what a locked protocol means without changing its hash.
import { canonicalHash } from "../core/canonical.js";
import {
  DEFAULT_MANAGED_MODE,
  DEFAULT_WORKTREE,
  type Fixture,
} from "../probes/contracts/fixture.js";
import { cellLayout } from "../probes/contracts/fixture-paths.js";
import type { Launch } from "../probes/contracts/probe-spec.js";
import { type Script, sentinelNames } from "../probes/contracts/script.js";
import type { Arm, Protocol } from "./protocol.js";

/**
 * The canonical forms a lock has been computed in, oldest first. `parsed` is the protocol as the
 * schema parses it (its zod defaults filled, every other absent field left out): what locks held
 * before `effective/1`, which also writes out the defaults the cell applies to an absent field.
 * `effective/2` adds each arm's `fixture.managed`. effective/1 predates that field, so it means
 * `managed: record` for every arm: a protocol whose arms all record is hashed in effective/1 (its
 * lock, old or new, keeps verifying), any other in effective/2, which effective/1 cannot state.
 */
export const CANONICAL_FORMS = ["parsed", "effective/1", "effective/2"] as const;
export type CanonicalForm = (typeof CANONICAL_FORMS)[number];

/** The newest form: the one a protocol using every field of today's schema is hashed in. */
export const CURRENT_FORM: CanonicalForm = "effective/2";

/** Whether `form` can state all of `protocol` (an older form lacks a newer field's values). */
export function formExpresses(protocol: Protocol, form: CanonicalForm): boolean {
  if (form !== "effective/1") return true;
  return protocol.arms.every((a) => (a.fixture.managed ?? DEFAULT_MANAGED_MODE) === "record");
}

/** The form a protocol is hashed and locked in: the oldest effective form that states all of it. */
export function formOf(protocol: Protocol): CanonicalForm {
  return formExpresses(protocol, "effective/1") ? "effective/1" : "effective/2";
}

/** A fixture with every default the cell would apply written out. */
function effectiveFixture(fixture: Fixture, script: Script, form: CanonicalForm) {
  const nested = fixture.workspace === "nested-worktree";
  const worktree = nested ? (fixture.worktree ?? DEFAULT_WORKTREE) : null;
  const layout = cellLayout(fixture.workspace, worktree ?? undefined);
  const placed = fixture.sentinelsIn ?? {};
  return {
    workspace: fixture.workspace,
    trust: fixture.trust,
    files: fixture.files.map((f) => ({ ...f, afterWorktree: f.afterWorktree ?? false })),
    // Every sentinel the script names, where the cell puts it (the cell's own directory by default).
    sentinelsIn: Object.fromEntries(sentinelNames(script).map((n) => [n, placed[n] ?? "cell"])),
    worktree,
    // "." is the workspace root, where the cell starts the CLI when the fixture names no cwd.
    cwd: fixture.cwd ?? ".",
    // Where the cell puts each root, relative to its own root: the ancestors a walk can reach.
    layout: {
      workspace: layout.workspace,
      parent: layout.parent,
      grandparent: layout.grandparent,
      primary: layout.primary,
      home: layout.home,
    },
    ...(form === "effective/1" ? {} : { managed: fixture.managed ?? DEFAULT_MANAGED_MODE }),
    // Stated only when not the default (temp), so every lock made before the field keeps its hash.
    ...(fixture.cell?.root === "home" ? { cell: { root: "home" } } : {}),
    // Stated only when set, like `cell`: a served flag's value decides outcomes (record 0057).
    ...(fixture.featureFlags === undefined ? {} : { featureFlags: fixture.featureFlags }),
  };
}

/** A launch with its defaults written out: no variable set or removed unless the arm says so. */
function effectiveLaunch(launch: Launch) {
  // An orchestrator launch came after the effective forms: it is hashed as written.
  if ("orchestrator" in launch) return launch;
  return { ...launch, env: { set: launch.env?.set ?? {}, unset: launch.env?.unset ?? [] } };
}

function effectiveArm(arm: Arm, form: CanonicalForm) {
  return {
    ...arm,
    fixture: effectiveFixture(arm.fixture, arm.script, form),
    launch: effectiveLaunch(arm.launch),
  };
}

/** The value a form hashes. */
export function canonicalValue(protocol: Protocol, form: CanonicalForm): unknown {
  switch (form) {
    case "parsed":
      return protocol;
    case "effective/1":
    case "effective/2": {
      const arms = protocol.arms.map((arm) => effectiveArm(arm, form));
      return { form, ...protocol, arms };
    }
  }
}

/** The protocol's hash in `form` (by default the form it is locked in, `formOf`): what a lock pins. */
export function protocolHash(protocol: Protocol, form: CanonicalForm = formOf(protocol)): string {
  return canonicalHash(canonicalValue(protocol, form));
}

/**
 * The earlier form in which `protocol` hashes to `hash`, or null: a lock holding that hash
 * registered exactly this content, written in a form that left some defaults unstated. A form
 * that cannot state the protocol (effective/1 for an arm that masks) never counts.
 */
export function earlierFormOf(protocol: Protocol, hash: string): CanonicalForm | null {
  const own = CANONICAL_FORMS.indexOf(formOf(protocol));
  for (const form of CANONICAL_FORMS.slice(0, own)) {
    if (formExpresses(protocol, form) && protocolHash(protocol, form) === hash) return form;
  }
  return null;
}

import { realpathSync } from "node:fs";

import type { ShimRecord } from "./log-schema.js";

/**
 * An asymmetric matcher (vitest's and jest's `expect.stringContaining(…)`, `expect.any(String)`,
 * or one built by hand): anything with `asymmetricMatch`.
 */
export interface AsymmetricMatcher {
  asymmetricMatch(actual: unknown): boolean;
  toString(): string;
  toAsymmetricMatcher?(): string;
}

/** True for an asymmetric matcher. */
export function isMatcher(value: unknown): value is AsymmetricMatcher {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === "function"
  );
}

/** One expected argument or variable: the exact text, or a matcher. */
export type Expected = string | AsymmetricMatcher;

/** What a spawn must look like; every given field must match. */
export interface SpawnExpectation {
  /** The arguments after the program name: each exact or a matcher, or one matcher for all of them. */
  argv?: readonly Expected[] | AsymmetricMatcher;
  /** The working directory (compared after resolving symlinks). */
  cwd?: string;
  /** Recorded variables: a string must match exactly, a matcher must match, null must be absent. */
  env?: Readonly<Record<string, Expected | null>>;
  /** How many calls must match; default at least one. */
  times?: number;
}

/** The verdict of a spawn check and the message a person reads when it fails. */
export interface SpawnCheck {
  pass: boolean;
  matches: ShimRecord[];
  message: string;
}

const SHOWN_CALLS = 5;
const CELL = 40;

/** How an expected value reads in a message: JSON text, or the matcher's own description. */
export function describeExpected(value: Expected): string {
  if (!isMatcher(value)) return JSON.stringify(value);
  if (value.toAsymmetricMatcher !== undefined) return value.toAsymmetricMatcher();
  // vitest's matchers keep what they compare with in `sample` (a text, a regex, a constructor).
  const sample = (value as { sample?: unknown }).sample;
  const name = value.toString();
  if (sample === undefined) return name;
  if (typeof sample === "function") return `${name}<${sample.name}>`;
  return `${name} ${sample instanceof RegExp ? String(sample) : JSON.stringify(sample)}`;
}

function show(value: Expected | undefined): string {
  if (value === undefined) return "(none)";
  const json = describeExpected(value);
  const chars = typeof value === "string" ? value.length : json.length;
  return json.length <= CELL ? json : `${json.slice(0, CELL - 12)}…(${chars} chars)`;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True when `actual` is `expected`, or `expected` is a matcher that accepts it. */
export function matchesExpected(expected: Expected, actual: string | undefined): boolean {
  return isMatcher(expected) ? expected.asymmetricMatch(actual) : expected === actual;
}

/** The expected and actual argv in two columns, with ≠ on every line that differs. */
export function sideBySide(expected: readonly Expected[], actual: readonly string[]): string {
  const rows = [`     ${"expected".padEnd(CELL)}   actual`];
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const e = expected[i];
    const a = actual[i];
    const same = e !== undefined && a !== undefined && matchesExpected(e, a);
    const mark = same ? "   " : " ≠ ";
    rows.push(`  ${String(i).padStart(2)} ${show(e).padEnd(CELL)}${mark}${show(a)}`);
  }
  return rows.join("\n");
}

function argvMatches(
  expected: readonly Expected[] | AsymmetricMatcher,
  actual: readonly string[],
): boolean {
  if (isMatcher(expected)) return expected.asymmetricMatch(actual);
  return (
    expected.length === actual.length && expected.every((x, i) => matchesExpected(x, actual[i]))
  );
}

/** Why a record does not meet the expectation, one line per difference (empty when it matches). */
export function differences(record: ShimRecord, expected: SpawnExpectation): string[] {
  const out: string[] = [];
  if (expected.argv !== undefined && !argvMatches(expected.argv, record.argv)) {
    out.push(
      isMatcher(expected.argv)
        ? `argv: expected ${describeExpected(expected.argv)}, actual ${JSON.stringify(record.argv)}`
        : `argv differs:\n${sideBySide(expected.argv, record.argv)}`,
    );
  }
  if (expected.cwd !== undefined && real(expected.cwd) !== record.cwd) {
    out.push(`cwd: expected ${real(expected.cwd)}, actual ${record.cwd}`);
  }
  for (const [name, want] of Object.entries(expected.env ?? {})) {
    // Own keys only: `constructor` or `toString` must not be found on Object.prototype.
    const got = Object.hasOwn(record.env, name) ? record.env[name] : undefined;
    if (want === null && got !== undefined)
      out.push(`env ${name}: expected absent, actual ${show(got)}`);
    if (want !== null && !matchesExpected(want, got))
      out.push(`env ${name}: expected ${show(want)}, actual ${show(got)}`);
  }
  return out;
}

function describeExpectation(name: string, expected: SpawnExpectation): string {
  const parts = [
    `expected ${expected.times === undefined ? "a call" : `exactly ${expected.times} call(s)`} to ${name}`,
  ];
  const argv = expected.argv;
  if (argv !== undefined)
    parts.push(
      `  argv ${isMatcher(argv) ? describeExpected(argv) : `[${argv.map(describeExpected).join(",")}]`}`,
    );
  if (expected.cwd !== undefined) parts.push(`  cwd  ${expected.cwd}`);
  if (expected.env !== undefined)
    parts.push(
      `  env  {${Object.entries(expected.env)
        .map(([k, v]) => `${JSON.stringify(k)}:${v === null ? "null" : describeExpected(v)}`)
        .join(",")}}`,
    );
  return parts.join("\n");
}

/** Checks that `name` was spawned as expected, explaining every near miss when it was not. */
export function checkSpawned(
  records: readonly ShimRecord[],
  name: string,
  expected: SpawnExpectation,
): SpawnCheck {
  const calls = records.filter((r) => r.shim === name);
  const matches = calls.filter((r) => differences(r, expected).length === 0);
  const pass =
    expected.times === undefined ? matches.length > 0 : matches.length === expected.times;
  const head = describeExpectation(name, expected);
  if (calls.length === 0) {
    const others = [...new Set(records.map((r) => r.shim))];
    const seen =
      others.length === 0 ? "no shim was called at all" : `shims called: ${others.join(", ")}`;
    return { pass, matches, message: `${head}\n${name} was never called (${seen})` };
  }
  const lines = [head, `${name} was called ${calls.length} time(s), ${matches.length} matched`];
  calls.slice(0, SHOWN_CALLS).forEach((record, i) => {
    const diffs = differences(record, expected);
    lines.push(`call ${i + 1} (pid ${record.pid}):${diffs.length === 0 ? " matches" : ""}`);
    if (diffs.length > 0) lines.push(...diffs.map((d) => `  ${d.replaceAll("\n", "\n  ")}`));
    else if (expected.argv !== undefined && !isMatcher(expected.argv))
      lines.push(`  ${sideBySide(expected.argv, record.argv).replaceAll("\n", "\n  ")}`);
  });
  if (calls.length > SHOWN_CALLS) lines.push(`… and ${calls.length - SHOWN_CALLS} more call(s)`);
  return { pass, matches, message: lines.join("\n") };
}

/** Every way the plans went unmet: steps never called, calls beyond the plan. Empty when all were met. */
export function unmetPlans(
  records: readonly ShimRecord[],
  plans: Readonly<Record<string, number>> = {},
): string[] {
  const lengths = new Map<string, number>(Object.entries(plans));
  for (const r of records)
    if (r.mode === "plan" && r.planLength !== undefined) lengths.set(r.shim, r.planLength);
  const problems: string[] = [];
  for (const [name, length] of lengths) {
    const calls = records.filter((r) => r.shim === name && r.mode === "plan");
    const seen = new Set(calls.map((r) => r.call));
    const missing = Array.from({ length }, (_, i) => i + 1).filter((n) => !seen.has(n));
    if (missing.length > 0) {
      problems.push(
        `${name}: plan of ${length} call(s), call(s) ${missing.join(", ")} never arrived`,
      );
    }
    for (const r of calls.filter((c) => c.beyondPlan === true)) {
      problems.push(
        `${name}: call ${r.call ?? "?"} arrived beyond the plan of ${length}, argv ${JSON.stringify(r.argv)}`,
      );
    }
  }
  return problems;
}

// What `witness probe` takes besides files: `--env NAME=value` flags, and a call a shim recorded
// (`--replay`) turned into the launch's argv, variables and stdin.
import { createHash } from "node:crypto";

import { canonicalCliName, type ProbeCliName } from "../clis/names.js";
import { InputError, UsageError } from "../core/errors.js";
import { launchEnvProblems } from "./contracts/launch-env.js";
import { parseCliRef } from "./contracts/probe-spec.js";
import type { ProbeInput } from "./probe-input.js";

/** A call a shim recorded, as `witness probe --replay` hands it over (see shims/replay-call.ts). */
export interface ReplaySource {
  file: string;
  line: number;
  shim: string;
  argv: readonly string[];
  /** The variables whose values the log kept. */
  env: Readonly<Record<string, string>>;
  /** The names whose values the log kept only redacted (nothing to replay). */
  redacted?: readonly string[];
  /** What the call read on stdin: a byte count and digest; null when it read none. */
  stdin: { bytes: number; sha256: string } | null;
}

/** `--env NAME=value` flags as variables; a UsageError names a flag that is not one. */
export function envFlags(flags: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf("=");
    const name = eq < 0 ? flag : flag.slice(0, eq);
    const problem = eq < 0 ? null : launchEnvProblems({ set: { [name]: "" } })[0];
    if (eq <= 0 || problem !== undefined)
      throw new UsageError(
        `--env ${JSON.stringify(flag)}: ${problem?.message ?? "expected NAME=value"}`,
      );
    out[name] = flag.slice(eq + 1);
  }
  return out;
}

/** `--env` flags as a launch's `env` (nothing when there are none). */
export function launchEnvOf(flags: readonly string[]): { env?: { set: Record<string, string> } } {
  const set = envFlags(flags);
  return Object.keys(set).length === 0 ? {} : { env: { set } };
}

/**
 * The probe input a recorded call becomes: its argv, and its variables as `--env` flags (those the
 * cell does not own; flags given on the command line win), after checking it is a call of the
 * `--cli` named and that `--stdin` is what it read. `note` hears what is left out.
 */
export function replayInput(
  input: ProbeInput,
  replay: ReplaySource,
  note: (line: string) => void = () => undefined,
): ProbeInput {
  if (input.node !== undefined || (input.argv ?? []).length > 0)
    throw new UsageError("give --replay alone: the recorded call is the argv");
  checkReplay(replay, parseCliRef(input.cli).name, input.stdin);
  const { set, dropped } = replayEnv(replay.env);
  if (dropped.length > 0) note(`replay: the cell sets its own ${dropped.join(", ")}`);
  const redacted = replay.redacted ?? [];
  if (redacted.length > 0)
    note(`replay: not replayed, the log kept them redacted: ${redacted.join(", ")}`);
  const own = new Set(Object.keys(envFlags(input.env ?? [])));
  const recorded = Object.entries(set)
    .filter(([name]) => !own.has(name))
    .map(([name, value]) => `${name}=${value}`);
  return { ...input, argv: [...replay.argv], env: [...recorded, ...(input.env ?? [])] };
}

/** The recorded call's variables a probe may set, and those the cell owns (its HOME, endpoint, key). */
export function replayEnv(env: Readonly<Record<string, string>>): {
  set: Record<string, string>;
  dropped: string[];
} {
  const set: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env))
    if (launchEnvProblems({ set: { [name]: value } }).length === 0) set[name] = value;
    else dropped.push(name);
  return { set, dropped };
}

/**
 * Checks a recorded call against the probe it becomes: its shim is `cli`, and `stdin` is what it
 * read (the log keeps a digest only, so the text comes from `--stdin` and must match it).
 */
export function checkReplay(source: ReplaySource, cli: ProbeCliName, stdin: string | undefined) {
  const where = `line ${source.line}`;
  const shimCli = canonicalCliName(source.shim);
  if (shimCli !== cli)
    throw new InputError(source.file, [
      { path: where, message: `expected a call of ${cli} (--cli); got one of ${source.shim}` },
    ]);
  const read = source.stdin?.bytes ?? 0;
  if (read === 0 && stdin !== undefined)
    throw new UsageError(`--stdin: the call on ${source.file} ${where} read nothing on stdin`);
  if (read > 0) {
    if (stdin === undefined)
      throw new UsageError(
        `--replay ${source.file} ${where}: the call read ${read} bytes on stdin, which the log keeps as a digest only; give them with --stdin`,
      );
    const digest = createHash("sha256").update(stdin, "utf8").digest("hex");
    if (digest !== source.stdin?.sha256)
      throw new UsageError(
        `--stdin: expected the ${read} bytes the call on ${source.file} ${where} read (sha256 ${source.stdin?.sha256 ?? ""}); got other text`,
      );
  }
}

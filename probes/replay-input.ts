// What `witness probe` takes besides files: `--env NAME=value` flags, and a call a shim recorded
// (`--replay`) turned into the launch's argv, variables and stdin.
import { createHash } from "node:crypto";

import { canonicalCliName, type ProbeCliName } from "../clis/names.js";
import { InputError, UsageError } from "../core/errors.js";
import { launchEnvProblems } from "./contracts/launch-env.js";

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

// One call a shim recorded, picked from its log to be replayed as a probe (`witness probe
// --replay <log> [--call N]`): its argv, the variables it had (those the log kept in clear), and
// what it read on stdin (a byte count and digest).
import { InputError } from "../core/errors.js";
import type { ShimRecord } from "./log-schema.js";
import { readShimLog } from "./read-log.js";

/** The call to replay, as data. */
export interface ReplayCall {
  file: string;
  /** Its 1-based line in the log, and its 1-based number among the log's calls. */
  line: number;
  call: number;
  shim: string;
  argv: string[];
  /** The recorded variables whose values the log kept (a redacted value is no value to replay). */
  env: Record<string, string>;
  /** Names the log kept only redacted. */
  redacted: string[];
  stdin: ShimRecord["stdin"];
  cwd: string;
}

const REDACTED = /^<redacted:\d+>$/;

/**
 * Reads `file` and picks call `call` (1-based; absent: the log's only call). An InputError names
 * the file and line of a line that is not a recorded call, or says how many calls there are.
 */
export async function replayCall(
  file: string,
  call: number | undefined,
  options: { cwd?: string } = {},
): Promise<ReplayCall> {
  const log = await readShimLog(file, options);
  if (log.problems.length > 0)
    throw new InputError(
      file,
      log.problems.map((p) => ({
        path: `line ${p.line}`,
        message: `expected a recorded call; ${p.message}`,
      })),
    );
  const count = log.records.length;
  if (count === 0)
    throw new InputError(file, [
      { path: "", message: "expected a recorded call; the log holds none" },
    ]);
  if (call === undefined && count > 1)
    throw new InputError(file, [
      { path: "", message: `the log holds ${count} calls; pick one with --call N (1 to ${count})` },
    ]);
  const n = call ?? 1;
  const record = log.records[n - 1];
  if (!Number.isInteger(n) || n < 1 || record === undefined)
    throw new InputError(file, [
      { path: `--call ${n}`, message: `expected a call from 1 to ${count} (the calls in the log)` },
    ]);
  const env: Record<string, string> = {};
  const redacted: string[] = [];
  for (const [name, value] of Object.entries(record.env))
    if (REDACTED.test(value)) redacted.push(name);
    else env[name] = value;
  return {
    file,
    line: log.lines[n - 1] ?? 0,
    call: n,
    shim: record.shim,
    argv: record.argv,
    env,
    redacted,
    stdin: record.stdin,
    cwd: record.cwd,
  };
}

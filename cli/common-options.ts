// The options several commands share, declared once so their names, units and help read the same.
import type { Argv } from "yargs";

import { UsageError } from "../core/errors.js";

/** `--json`: one JSON document on stdout and nothing else there. */
export function withJson<T>(y: Argv<T>, what: string): Argv<T & { json: boolean }> {
  return y.option("json", {
    type: "boolean",
    default: false,
    describe: `print ${what} as one JSON document on stdout (diagnostics stay on stderr)`,
  });
}

/** `--cache <dir>`: the vendor CLI cache, wherever a command installs or finds a CLI. */
export function withCache<T>(y: Argv<T>): Argv<T & { cache: string | undefined }> {
  return y.option("cache", {
    type: "string",
    describe: "vendor CLI cache directory (default $WITNESS_CACHE, else ~/.cache/witness)",
  });
}

/** What `witness run` and `witness merge` need for exit 0. */
export type Gate = "confirmed" | "reproduces";

/** `--gate <confirmed|reproduces>`: every arm confirmed, or every record as its committed one. */
export function withGate<T>(y: Argv<T>): Argv<T & { gate: Gate }> {
  return y.option("gate", {
    choices: ["confirmed", "reproduces"] as const,
    default: "confirmed" as const,
    describe:
      "what exit 0 needs: every arm confirmed, or every record reproducing the verdicts of its committed record (a refuted claim kept as a result then passes)",
  });
}

/** The longest `--timeout` accepted, in seconds (a day): beyond that it is a unit mistake. */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** `--timeout <seconds>`: the one timeout flag, in seconds everywhere. */
export function withTimeout<T>(
  y: Argv<T>,
  what: string,
  defaultSeconds?: number,
): Argv<T & { timeout: number | undefined }> {
  return y.option("timeout", {
    type: "number",
    describe: `${what}, in seconds`,
    ...(defaultSeconds === undefined ? {} : { default: defaultSeconds }),
  });
}

/** `--timeout` in milliseconds, refused (exit 2) unless a positive number of seconds up to a day. */
export function timeoutMs(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS)
    throw new UsageError(
      `--timeout ${String(seconds)}: expected a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`,
    );
  return Math.round(seconds * 1000);
}

/** Writes `value` as the command's one JSON document. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

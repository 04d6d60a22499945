// Why a spawn reached no model request, in the CLI's own terms: what its exit code means (a code
// the CLI's own code gives a meaning, e.g. Gemini CLI's 55 for an untrusted folder: its facts in
// clis/) and the last lines it printed on stderr. Without them a probe that got nothing says only that.
import type { NoRequestReason } from "./contracts/observation.js";

/** Characters of stderr a reason keeps at most (its last lines: the CLI's last words). */
export const REASON_STDERR_CHARS = 300;
/** Non-empty stderr lines a reason keeps at most. */
const REASON_STDERR_LINES = 3;

// Colour and cursor sequences (CSI), which some CLIs print even when stderr is not a terminal.
// eslint-disable-next-line no-control-regex -- the escape character is exactly what is removed
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** The end of `stderr` as a reason shows it: colour removed, the last few lines, bounded. */
export function stderrExcerpt(stderr: string): string {
  const lines = stderr
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  // The last lines that fit; a last line too long alone keeps its start, where a message begins.
  let kept = lines.slice(-REASON_STDERR_LINES);
  while (kept.length > 1 && kept.join(" / ").length > REASON_STDERR_CHARS) kept = kept.slice(1);
  const text = kept.join(" / ");
  return text.length > REASON_STDERR_CHARS ? `${text.slice(0, REASON_STDERR_CHARS - 1)}…` : text;
}

/**
 * The reason of a spawn that reached no model request; `exitCodes` is what the CLI's own code
 * says its exit codes mean (its facts in clis/, e.g. Gemini CLI's 55: an untrusted folder).
 */
export function noRequestReason(
  exitCode: number | null,
  stderr: string,
  exitCodes: Readonly<Record<number, string>> | undefined,
): NoRequestReason {
  return {
    exitCode,
    meaning: exitCode === null ? null : (exitCodes?.[exitCode] ?? null),
    stderr: stderrExcerpt(stderr),
  };
}

// The one-line form lives beside the schema, where the predicates (prereg/) can reach it.
export { reasonText } from "./contracts/observation.js";

// How a tool call ended, as one vocabulary and one evidence shape for every CLI's classifier: the
// probe's driver (the result on the wire, plus the session's record) and the transcript reader
// (the session's record alone) ask the same function.

/** How a call ended: it ran, a permission rule or mode refused it, no such tool, it failed, or not known. */
export const CALL_OUTCOMES = ["ran", "denied", "no-such-tool", "error", "unknown"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** An outcome and, in a few words, what decided it. */
export interface Judged {
  outcome: CallOutcome;
  because: string;
}

/** A tool result's text and error flag, as sent back to the model or as the session recorded it. */
export interface ResultText {
  isError: boolean;
  text: string;
}

/** What a CLI's own session recorded about one call, beyond the model's request. */
export interface RecordedCall {
  /** The CLI's own permission decision (Claude Code's `permissionDecision`, Qwen Code's telemetry, opencode's auto-reject). */
  decision?: string | null;
  /** Claude Code's `toolDenialKind` (2.1.200+). */
  denialKind?: string | null;
  /** A status word (Gemini CLI's call status, Qwen Code's execution status, opencode's part status). */
  status?: string | null;
  /** Qwen Code's `errorType`. */
  errorType?: string | null;
  /** The exit code the session recorded apart from the text (opencode's metadata, Codex's JSON output). */
  exitCode?: number | null;
  /** A refusal read elsewhere in the session (Codex: a sandbox wording in a command it reported running). */
  refusal?: string | null;
  /** The result as the session recorded it. */
  result?: ResultText | null;
}

/** Everything known about one call: the result on the wire (a probe) and the session's record. */
export interface CallEvidence {
  wire: ResultText | null;
  recorded: RecordedCall | null;
}

/** One CLI's classifier. */
export type CallClassifier = (evidence: CallEvidence) => Judged;

/** The result to judge: the one sent back to the model, else the one the session recorded. */
export function resultOf(evidence: CallEvidence): ResultText | null {
  return evidence.wire ?? evidence.recorded?.result ?? null;
}

/** The exit code a shell tool's result states on a line of its own (`Exit Code: 3`), or null. */
export function statedExitCode(text: string): number | null {
  const match = /^Exit Code: (-?\d+)$/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** How the CLIs word a call of a tool they do not offer, in the phrasings several share. */
export const NO_SUCH_TOOL =
  /No such tool available|unsupported call|unsupported custom tool call|unknown tool|tool .* not found/i;

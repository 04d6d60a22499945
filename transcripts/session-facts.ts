// The shapes every transcript reader returns for the same facts, whatever CLI wrote the file:
// a tool call and how it ended, token usage, and the bounded excerpts kept of large values.

import type { CallOutcome } from "../clis/outcome.js";

export type { CallOutcome } from "../clis/outcome.js";

/** One tool call, from the model's request to the result the CLI recorded. */
export interface TranscriptCall {
  /** Line of the call. */
  line: number;
  id: string;
  name: string;
  /** One line saying what the call asks for (the command, the path …), at most 200 characters. */
  inputSummary: string;
  outcome: CallOutcome;
  /** Which field or wording decided the outcome (`permissionDecision`, `wording:…`, `exit code` …). */
  because: string;
  /** Line of the result, or null when the transcript has none. */
  resultLine: number | null;
  /**
   * The start of the result's text (at most EXCERPT characters) when the call did not simply run;
   * empty for `ran`, so a long session's memory grows with its calls, not with their outputs.
   */
  resultExcerpt: string;
  /** The command's exit code, when the result says it. */
  exitCode: number | null;
}

/** Tokens the session used, as the CLI recorded them (absent counts are 0). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache (Claude Code cache reads; Codex cached input). */
  cachedInputTokens: number;
  /** Input tokens written to the prompt cache (Claude Code only). */
  cacheCreationInputTokens: number;
}

/** Result text is kept up to this many characters. */
export const EXCERPT = 160;
const SUMMARY = 200;

/** A text cut to `max` characters, with an ellipsis when it was longer. */
export function clip(text: string, max = EXCERPT): string {
  return detach(text.length <= max ? text : `${text.slice(0, max - 1)}…`);
}

/** The excerpt a call keeps of its result: none for a call that ran (see TranscriptCall). */
export function resultExcerpt(outcome: CallOutcome, text: string): string {
  return outcome === "ran" ? "" : clip(text);
}

/**
 * A copy of a short string that holds no reference to the string it was cut from: V8 keeps a
 * slice's whole parent alive (an 8 KB tool output per 300-character excerpt), and memory would
 * grow with the file instead of with the number of calls.
 */
export function detach(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/**
 * One line describing a tool input: the field that says what the call does (`command`, `cmd`,
 * `file_path`, `path`, `pattern`, `url`, `code`) when there is one, else the input's JSON.
 */
export function summarizeInput(input: unknown): string {
  if (typeof input === "string") return clip(oneLine(input), SUMMARY);
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    const fields = input as Record<string, unknown>;
    for (const key of [
      "command",
      "cmd",
      "file_path",
      "filePath",
      "path",
      "pattern",
      "url",
      "code",
    ]) {
      const value = fields[key];
      if (typeof value === "string") return clip(`${key}: ${oneLine(value)}`, SUMMARY);
      if (Array.isArray(value) && value.every((v) => typeof v === "string"))
        return clip(`${key}: ${value.join(" ")}`, SUMMARY);
    }
  }
  return clip(JSON.stringify(input) ?? String(input), SUMMARY);
}

const phrases = new Map<string, string>();

/**
 * One shared copy of a short phrase built per call (`exit code 3`, `wording …`): thousands of
 * calls share a handful of them. The table stops growing at 1000 phrases.
 */
export function phrase(text: string): string {
  const known = phrases.get(text);
  if (known !== undefined) return known;
  const copy = detach(text);
  if (phrases.size < 1000) phrases.set(copy, copy);
  return copy;
}

function oneLine(text: string): string {
  return detach(text.replace(/\s*\n\s*/g, " ⏎ "));
}

/** Sums usage counts, reading absent or non-numeric ones as 0. */
export function addUsage(total: TokenUsage | null, part: Partial<TokenUsage>): TokenUsage {
  const n = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  return {
    inputTokens: n(total?.inputTokens) + n(part.inputTokens),
    outputTokens: n(total?.outputTokens) + n(part.outputTokens),
    cachedInputTokens: n(total?.cachedInputTokens) + n(part.cachedInputTokens),
    cacheCreationInputTokens: n(total?.cacheCreationInputTokens) + n(part.cacheCreationInputTokens),
  };
}

// Shared JSONL reader for vendor transcripts: one line at a time, never fatal on a bad line, and
// nothing of the file kept beyond the line in hand (memory stays flat whatever the file's size).
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

import { firstLine } from "../core/error-text.js";
import type { DriftLog } from "./drift.js";

/** One parsed JSON line: the value, its 1-based line number and its exact text. */
export interface JsonlLine {
  line: number;
  value: unknown;
  text: string;
}

/** What a full pass over a JSONL file saw besides the lines handed to the visitor. */
export interface JsonlSummary {
  /** Non-empty lines read, broken ones included. */
  lineCount: number;
  /** Lines that were not JSON (each also noted in the drift log as `not-json`). */
  brokenCount: number;
  /** Number of the last non-empty line (0 for a file without one). */
  lastLine: number;
}

/** Options of one pass. */
export interface StreamJsonlOptions {
  /** Where lines that are not JSON are noted. */
  drift: DriftLog;
  /** Called with every non-empty line's text before it is parsed (marker search). */
  onText?: (text: string, line: number) => void;
}

/**
 * Streams `path` line by line and calls `visit` for each line that parses as JSON; a line that
 * does not is noted as `not-json` with its number and skipped. A byte-order mark before the first
 * line is dropped. A missing or unreadable file rejects (the caller decides what absence means).
 */
export async function streamJsonl(
  path: string,
  visit: (line: JsonlLine) => void,
  options: StreamJsonlOptions,
): Promise<JsonlSummary> {
  // The default 64 KiB chunks: larger ones raise the peak memory with the file's size.
  const input = createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  const summary: JsonlSummary = { lineCount: 0, brokenCount: 0, lastLine: 0 };
  let number = 0;
  // A bad line is noted once the next line shows whether it was the last one: a writer cut off
  // mid-line leaves a partial last line, and that deserves its own words.
  let held: { line: number; error: string } | null = null;
  const release = (last: boolean): void => {
    if (held === null) return;
    const why = last ? "the last line is not complete JSON (cut off mid-write?)" : "not JSON";
    options.drift.note(held.line, "not-json", "", `${why}: ${held.error}`);
    held = null;
  };
  const onLine = (raw: string): void => {
    number += 1;
    const text = number === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (text.trim() === "") return;
    release(false);
    summary.lineCount += 1;
    summary.lastLine = number;
    options.onText?.(text, number);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      summary.brokenCount += 1;
      held = { line: number, error: firstLine(error) };
      return;
    }
    visit({ line: number, value, text });
  };
  await new Promise<void>((resolve, reject) => {
    // readline re-emits the stream's error (a missing file) on itself, and then never closes.
    lines.once("error", reject);
    lines.on("line", onLine);
    lines.once("close", resolve);
  });
  release(true);
  return summary;
}

/** The `type` field of a record, or null when the value is not an object with a string type. */
export function recordType(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" ? type : null;
}

/** Counts one occurrence of `key` in a plain tally object. */
export function tally(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Finds marker values in streamed lines without keeping the lines: each value is looked for as
 * written and as it reads inside a JSON string, and stops being looked for once seen.
 */
export class MarkerSearch {
  private readonly pending = new Map<string, string[]>();
  private readonly found = new Set<string>();

  constructor(values: readonly string[]) {
    for (const value of values) {
      if (value === "") continue;
      const escaped = JSON.stringify(value).slice(1, -1);
      this.pending.set(value, escaped === value ? [value] : [value, escaped]);
    }
  }

  /** Looks for every pending value in one line. */
  scan(text: string): void {
    if (this.pending.size === 0) return;
    for (const [value, forms] of this.pending) {
      if (forms.some((form) => text.includes(form))) {
        this.found.add(value);
        this.pending.delete(value);
      }
    }
  }

  /** The values seen so far. */
  seen(): string[] {
    return [...this.found];
  }
}

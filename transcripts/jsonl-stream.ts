// Shared JSONL reader for vendor transcripts: one line at a time, never fatal on a bad line.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

import { firstLine } from "../core/error-text.js";

/** A line that could not be used, with its 1-based line number and why. */
export interface BrokenLine {
  line: number;
  error: string;
}

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
  broken: BrokenLine[];
  /** The whole file as read, for marker search. */
  rawText: string;
}

/**
 * Streams `path` line by line with node:readline and calls `visit` for each line that parses as
 * JSON; a line that does not parse is reported with its line number and skipped.
 * A missing or unreadable file rejects (the caller decides what absence means).
 */
export async function streamJsonl(
  path: string,
  visit: (line: JsonlLine) => void,
): Promise<JsonlSummary> {
  const input = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  const broken: BrokenLine[] = [];
  const raw: string[] = [];
  let number = 0;
  let lineCount = 0;
  for await (const text of lines) {
    number += 1;
    raw.push(text);
    if (text.trim() === "") continue;
    lineCount += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      broken.push({ line: number, error: `not JSON: ${firstLine(error)}` });
      continue;
    }
    visit({ line: number, value, text });
  }
  return { lineCount, broken, rawText: raw.join("\n") };
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

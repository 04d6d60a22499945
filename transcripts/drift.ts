// What a reader could not use: lines that are not JSON, record and payload types it does not know,
// fields a known record should have and lacks. Counted in full, listed up to a cap, never fatal.
import type { z } from "zod";

/** Why a line was not (fully) read. */
export type DriftKind =
  /** The line is not JSON (damaged, cut off mid-write, or not a transcript at all). */
  | "not-json"
  /** A record whose `type` the reader does not know (a newer CLI, or another file). */
  | "unknown-record"
  /** A known record whose payload or item type the reader does not know. */
  | "unknown-payload"
  /** A known record without a field the reader relies on, or with it in another shape. */
  | "missing-field";

/** One line that was not fully read. */
export interface DriftItem {
  /** 1-based line number in the file. */
  line: number;
  kind: DriftKind;
  /** The record or payload type concerned (`user`, `response_item/reasoning` …); empty if none. */
  subject: string;
  detail: string;
}

/** Everything a reader could not use in one file. */
export interface Drift {
  /** Occurrences per `kind subject`, every one counted. */
  counts: Record<string, number>;
  /** The first items in file order, each with its line. */
  items: DriftItem[];
  /** Items counted but not listed (beyond the cap). */
  omitted: number;
}

/** How many items a Drift lists: enough to act on, bounded so a garbage file stays small. */
export const DRIFT_ITEM_CAP = 200;

/** Collects drift while a file streams; `result()` is the Drift. */
export class DriftLog {
  private readonly drift: Drift = { counts: {}, items: [], omitted: 0 };

  /** Notes one line that was not fully read. */
  note(line: number, kind: DriftKind, subject: string, detail: string): void {
    const key = subject === "" ? kind : `${kind} ${subject}`;
    this.drift.counts[key] = (this.drift.counts[key] ?? 0) + 1;
    if (this.drift.items.length < DRIFT_ITEM_CAP)
      this.drift.items.push({ line, kind, subject, detail });
    else this.drift.omitted += 1;
  }

  /** Notes a record whose type the reader does not know (`type` null: it has no string type). */
  noteUnknownType(line: number, type: string | null, value: unknown, noun = "record"): void {
    const what = type === null ? `a ${noun} without a string type` : `${noun} type "${type}"`;
    this.note(line, "unknown-record", type ?? "", `unknown ${what} (keys: ${keysOf(value)})`);
  }

  /** Notes each zod issue of a known record as a missing or misshapen field. */
  noteSchema(line: number, subject: string, error: z.ZodError): void {
    for (const issue of error.issues) {
      const path = issue.path.map(String).join(".") || "(record)";
      const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
      this.note(line, "missing-field", subject, `${path}: ${missing ? "missing" : issue.message}`);
    }
  }

  /** The drift collected so far (items sorted by line). */
  result(): Drift {
    this.drift.items.sort((a, b) => a.line - b.line);
    return this.drift;
  }
}

/** An empty Drift. */
export function noDrift(): Drift {
  return { counts: {}, items: [], omitted: 0 };
}

/** Total occurrences in a Drift. */
export function driftTotal(drift: Drift): number {
  return Object.values(drift.counts).reduce((sum, n) => sum + n, 0);
}

/**
 * The drift as warning lines a person can act on: `file:line: detail`, at most `limit` of them,
 * then one line with how many more there are.
 */
export function driftWarnings(file: string, drift: Drift, limit = 20): string[] {
  const lines = drift.items.slice(0, limit).map((item) => `${file}:${item.line}: ${item.detail}`);
  const more = driftTotal(drift) - lines.length;
  if (more > 0) {
    const kinds = Object.entries(drift.counts)
      .map(([key, n]) => `${n} ${key}`)
      .join(", ");
    lines.push(`${file}: ${more} more line(s) not fully read (in all: ${kinds})`);
  }
  return lines;
}

/** The keys of a value, for a detail line about a record the reader did not know. */
export function keysOf(value: unknown, max = 8): string {
  if (typeof value !== "object" || value === null) return typeof value;
  const keys = Object.keys(value);
  return keys.length <= max ? keys.join(", ") : `${keys.slice(0, max).join(", ")}, …`;
}

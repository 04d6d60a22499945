import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

import { unreadableFile } from "../core/read-input.js";
import { type ShimRecord, shimRecordSchema } from "./log-schema.js";

/** A log line that could not be read, with its 1-based line number. */
export interface ShimLogProblem {
  line: number;
  message: string;
}

/** A read log: every intact record in order, and the lines that were not. */
export interface ShimLog {
  file: string;
  records: ShimRecord[];
  /** The 1-based line of each record, in the same order. */
  lines: number[];
  problems: ShimLogProblem[];
}

/** Parses JSONL log text; a bad line becomes a problem and the other lines still read. */
export function parseShimLog(text: string, file: string): ShimLog {
  const records: ShimRecord[] = [];
  const at: number[] = [];
  const problems: ShimLogProblem[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const isLast = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const why = isLast
        ? "truncated record (no newline at the end, not valid JSON)"
        : "not valid JSON";
      problems.push({ line: index + 1, message: why });
      return;
    }
    const result = shimRecordSchema.safeParse(value);
    if (result.success) {
      records.push(result.data);
      at.push(index + 1);
    } else {
      const detail = result.error.issues.map(
        (i) => `${i.path.map(String).join(".") || "record"}: ${i.message}`,
      );
      problems.push({ line: index + 1, message: `not a shim record (${detail.join("; ")})` });
    }
  });
  return { file, records, lines: at, problems };
}

function unreadable(file: string, error: unknown): never {
  throw unreadableFile(
    file,
    error,
    "the shim log",
    "check the path, or run the code under test with the shims on PATH first",
  );
}

/** Reads a shim log; a missing file is an InputError (exit 2). */
export async function readShimLog(file: string, options: { cwd?: string } = {}): Promise<ShimLog> {
  const path = resolve(options.cwd ?? process.cwd(), file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    unreadable(file, error);
  }
  return parseShimLog(text, file);
}

/** The synchronous twin of `readShimLog`, for matchers. */
export function readShimLogSync(file: string, options: { cwd?: string } = {}): ShimLog {
  const path = resolve(options.cwd ?? process.cwd(), file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    unreadable(file, error);
  }
  return parseShimLog(text, file);
}

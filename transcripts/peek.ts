// The first records of a JSONL file, read without streaming the rest: enough to tell what wrote
// it (a main session or a sidechain, Claude Code or Codex) before deciding how to read it.
import { open } from "node:fs/promises";

/** What the start of a file holds. */
export interface FileStart {
  /** The first non-empty lines that parse as JSON, with their 1-based numbers. */
  records: { line: number; value: unknown }[];
  /** The first non-empty line that does not parse, with the start of its text. */
  firstBad: { line: number; text: string } | null;
  /** True when the file holds nothing but whitespace. */
  empty: boolean;
}

const STEP = 1 << 16;

/**
 * Reads `path` from the start until `count` records are parsed, a line that is not JSON comes
 * first, the file ends or `maxBytes` (16 MiB) are read: a first record can be large.
 */
export async function fileStart(path: string, count = 5, maxBytes = 1 << 24): Promise<FileStart> {
  const handle = await open(path, "r");
  const start: FileStart = { records: [], firstBad: null, empty: true };
  try {
    let pending = Buffer.alloc(0);
    let position = 0;
    let line = 0;
    while (start.records.length < count && position < maxBytes) {
      const chunk = Buffer.alloc(STEP);
      const { bytesRead } = await handle.read(chunk, 0, STEP, position);
      position += bytesRead;
      const ended = bytesRead === 0;
      pending = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let newline = pending.indexOf(0x0a);
      while (newline !== -1 || (ended && pending.length > 0)) {
        const end = newline === -1 ? pending.length : newline;
        line += 1;
        const stop = take(start, line, pending.subarray(0, end).toString("utf8"), count);
        pending = pending.subarray(newline === -1 ? pending.length : newline + 1);
        if (stop) return start;
        newline = pending.indexOf(0x0a);
      }
      if (ended) break;
    }
    return start;
  } finally {
    await handle.close();
  }
}

/** Takes one line into `start`; true when reading can stop. */
function take(start: FileStart, line: number, raw: string, count: number): boolean {
  const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === "") return false;
  start.empty = false;
  try {
    start.records.push({ line, value: JSON.parse(text) as unknown });
  } catch {
    start.firstBad ??= { line, text: text.slice(0, 80) };
    // A first line that is not JSON settles it: this is no JSONL transcript.
    if (start.records.length === 0) return true;
  }
  return start.records.length >= count;
}

/** The first record of a JSONL file, or null when it is unreadable, empty or does not start with JSON. */
export async function firstRecord(path: string): Promise<{ line: number; value: unknown } | null> {
  try {
    return (await fileStart(path, 1)).records[0] ?? null;
  } catch {
    return null;
  }
}

// The last record of a kind in a JSONL file, found by reading backwards from the end: the
// parent-access detector needs only the latest permission mode or turn context, not the session.
import { open } from "node:fs/promises";

/** What to look for: bytes every wanted line holds, and the test a parsed line must pass. */
export interface RecordQuery<T> {
  /** Bytes every wanted line contains, e.g. `"permissionMode"`. */
  needle: string;
  /**
   * When set, the needle lies within the first `within` bytes of a wanted line (Codex writes a
   * line's `type` before its payload): only line starts are looked at.
   */
  within?: number;
  /** The value of a parsed line, or null when it is not the record wanted. */
  accept: (value: unknown) => T | null;
}

/** A record found from the end: its value and the byte offset where its line starts. */
export interface LatestRecord<T> {
  value: T;
  offset: number;
}

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Reads `path` backwards in 1 MiB chunks and returns the last line that holds the needle, parses
 * as JSON and is accepted. Lines without the needle are never decoded: candidates are found with
 * a byte search on the needle's rarest-looking byte (see RARE_FIRST), then the whole needle; or only at
 * line starts (`within`). A partial or broken line is passed over: a live session may be writing
 * its last line. Rejects only when the file cannot be opened or read.
 */
export async function latestRecord<T>(
  path: string,
  query: RecordQuery<T>,
): Promise<LatestRecord<T> | null> {
  const needle = Buffer.from(query.needle, "utf8");
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    let work = Buffer.allocUnsafe(CHUNK);
    // The start of a line that began before the chunk last read (its bytes up to the newline).
    let carry = Buffer.alloc(0);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      const length = end - start + carry.length;
      if (work.length < length) work = Buffer.allocUnsafe(length);
      await handle.read(work, 0, end - start, start);
      carry.copy(work, end - start);
      const buffer = work.subarray(0, length);
      const firstNewline = start === 0 ? -1 : buffer.indexOf(NEWLINE);
      if (start > 0 && firstNewline === -1) {
        // One line longer than the buffer: keep reading back to its start.
        carry = Buffer.from(buffer);
        end = start;
        continue;
      }
      const floor = firstNewline + 1;
      const found =
        query.within === undefined
          ? searchAnywhere(buffer, floor, needle, query.accept)
          : searchLineStarts(buffer, floor, needle, query.within, query.accept);
      if (found !== null) return { value: found.value, offset: start + found.offset };
      carry = Buffer.from(buffer.subarray(0, floor));
      end = start;
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** The last accepted line in buffer[floor…] holding the needle anywhere. */
function searchAnywhere<T>(
  buffer: Buffer,
  floor: number,
  needle: Buffer,
  accept: (value: unknown) => T | null,
): { value: T; offset: number } | null {
  const at = anchorIndex(needle);
  const anchor = needle[at] ?? 0;
  let from = buffer.length;
  while (from > floor) {
    const hit = buffer.lastIndexOf(anchor, from - 1);
    if (hit < floor) return null;
    const begin = hit - at;
    if (
      begin < floor ||
      buffer.compare(needle, 0, needle.length, begin, begin + needle.length) !== 0
    ) {
      from = hit;
      continue;
    }
    const lineStart = buffer.lastIndexOf(NEWLINE, begin) + 1;
    const value = parseLine(buffer, lineStart, accept);
    if (value !== null) return { value, offset: lineStart };
    from = lineStart;
  }
  return null;
}

/** The last accepted line in buffer[floor…] holding the needle in its first `within` bytes. */
function searchLineStarts<T>(
  buffer: Buffer,
  floor: number,
  needle: Buffer,
  within: number,
  accept: (value: unknown) => T | null,
): { value: T; offset: number } | null {
  let lineEnd = buffer.length;
  while (lineEnd > floor) {
    const lineStart = Math.max(floor, buffer.lastIndexOf(NEWLINE, lineEnd - 1) + 1);
    const head = buffer.subarray(lineStart, Math.min(lineEnd, lineStart + within));
    if (head.indexOf(needle) !== -1) {
      const value = parseLine(buffer, lineStart, accept);
      if (value !== null) return { value, offset: lineStart };
    }
    lineEnd = lineStart - 1;
  }
  return null;
}

// Bytes from rarer to commoner in JSON transcripts (upper case first: field values and text are
// mostly lower case); the first one the needle holds is searched for before the whole needle.
const RARE_FIRST = Buffer.from("ABCDEFGHIJKLMNOPQRSTUVWXYZqzxjkvwyb_gfm");

/** The needle byte to search for first: the rarest-looking one it holds. */
function anchorIndex(needle: Buffer): number {
  for (const byte of RARE_FIRST) {
    const at = needle.indexOf(byte);
    if (at >= 0) return at;
  }
  return 0;
}

function parseLine<T>(
  buffer: Buffer,
  lineStart: number,
  accept: (value: unknown) => T | null,
): T | null {
  const newline = buffer.indexOf(NEWLINE, lineStart);
  let text = buffer.toString("utf8", lineStart, newline === -1 ? buffer.length : newline);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return accept(JSON.parse(text));
  } catch {
    return null;
  }
}

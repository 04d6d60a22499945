import { basename } from "node:path";

/** Where an ADR's status sits, so `promote` can rewrite that one word and nothing else. */
export interface StatusLine {
  /** Zero-based line index in the file. */
  line: number;
  /** The status word as written, e.g. `proposed`, `Accepted`. */
  word: string;
  /** The word lower-cased: proposed, accepted, superseded … */
  value: string;
}

/** What the gate needs from an ADR file. */
export interface AdrDoc {
  file: string;
  /** Four-digit id from the file name (`0001-….md`), or from an `ADR-119` title. */
  id: string;
  title: string;
  status: StatusLine | null;
  /** Required protocol ids; null when the ADR has no `Requires:` line. */
  requires: string[] | null;
  /** Problems with the Requires line (bad ids). */
  problems: string[];
}

// "Status: Proposed", "• Status: proposed", "- **Status:** Accepted", "Status: accepted (2026-09-26)".
const STATUS_LINE = /^\s*(?:[•*-]\s+)?(?:\*\*)?status(?:\*\*)?\s*:\s*(?:\*\*)?\s*([A-Za-z]+)/i;
const FRONT_STATUS = /^status\s*:\s*["']?([A-Za-z]+)/i;
const REQUIRES_LINE = /^\s*(?:[•*-]\s+)?(?:\*\*)?requires(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*)$/i;

function frontMatterEnd(lines: readonly string[]): number {
  if (lines[0]?.trim() !== "---") return -1;
  return lines.findIndex((l, i) => i > 0 && l.trim() === "---");
}

function findStatus(lines: readonly string[]): StatusLine | null {
  const end = frontMatterEnd(lines);
  for (let i = 1; i < end; i++) {
    const m = FRONT_STATUS.exec(lines[i] ?? "");
    if (m?.[1] !== undefined) return { line: i, word: m[1], value: m[1].toLowerCase() };
  }
  for (let i = Math.max(0, end + 1); i < lines.length; i++) {
    const text = lines[i] ?? "";
    const m = STATUS_LINE.exec(text);
    if (m?.[1] !== undefined) return { line: i, word: m[1], value: m[1].toLowerCase() };
    // MADR: a "## Status" heading, the value on the next non-empty line.
    if (/^#{1,6}\s+status\s*$/i.test(text)) {
      const j = lines.findIndex((l, k) => k > i && l.trim() !== "");
      const word = /^\s*([A-Za-z]+)/.exec(lines[j] ?? "")?.[1];
      if (word !== undefined) return { line: j, word, value: word.toLowerCase() };
    }
  }
  return null;
}

function parseRequires(lines: readonly string[]): {
  requires: string[] | null;
  problems: string[];
} {
  for (const line of lines) {
    const m = REQUIRES_LINE.exec(line);
    if (m === null) continue;
    const rest = (m[1] ?? "").replace(/\*\*/g, "").trim();
    if (/^none\b/i.test(rest)) return { requires: [], problems: [] };
    const tokens = rest.split(/[\s,]+/).filter((t) => t !== "");
    const bad = tokens.filter((t) => !/^\d{1,4}$/.test(t));
    if (tokens.length === 0 || bad.length > 0) {
      return {
        requires: null,
        problems: [`Requires: expected protocol ids like "0001, 0003" or "none"; got "${rest}"`],
      };
    }
    return { requires: tokens.map((t) => t.padStart(4, "0")), problems: [] };
  }
  return { requires: null, problems: [] };
}

/** Parses an ADR's title, status line and required protocols. */
export function parseAdr(text: string, file: string): AdrDoc {
  const lines = text.split("\n");
  const heading = lines
    .find((l) => /^#\s+/.test(l))
    ?.replace(/^#\s+/, "")
    .trim();
  const title =
    heading ?? lines.find((l) => l.trim() !== "" && l.trim() !== "---")?.trim() ?? basename(file);
  const fromName = /^(\d{4})-/.exec(basename(file))?.[1];
  const fromTitle = /ADR[- ]?(\d{1,4})\b/i.exec(title)?.[1];
  const id =
    fromName ?? (fromTitle === undefined ? basename(file, ".md") : fromTitle.padStart(4, "0"));
  return { file, id, title, status: findStatus(lines), ...parseRequires(lines) };
}

/** The text with its status word replaced by `accepted`, in the case the author used. */
export function withStatus(text: string, status: StatusLine, value: string): string {
  const lines = text.split("\n");
  const word =
    status.word === status.word.toUpperCase()
      ? value.toUpperCase()
      : status.word[0] === status.word[0]?.toUpperCase()
        ? value[0]?.toUpperCase() + value.slice(1)
        : value;
  const line = lines[status.line] ?? "";
  const at = line.indexOf(status.word, line.toLowerCase().indexOf("status") + 1);
  const start = at >= 0 ? at : line.indexOf(status.word);
  lines[status.line] = line.slice(0, start) + word + line.slice(start + status.word.length);
  return lines.join("\n");
}

import { basename } from "node:path";

import { UsageError } from "../core/errors.js";

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
  /** Problems with the status or Requires lines (two of either, bad ids): each fails the ADR. */
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

// Characters a reader does not see: zero-width spaces and joiners, bidi controls, soft hyphens.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** The text as the gate matches it: invisible characters removed, then NFKC (`Ｓtatus` is `Status`). */
export function normaliseAdrText(text: string): string {
  return text.replace(INVISIBLE, "").normalize("NFKC");
}

/**
 * The lines a reader sees as prose: HTML comments and fenced code blocks become empty (line
 * numbers kept), so a status or `Requires:` line inside either is never read.
 */
export function proseLines(text: string): string[] {
  const lines = normaliseAdrText(text).split("\n");
  let fence: string | null = null;
  let inComment = false;
  return lines.map((line) => {
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`).test(line))
        fence = null;
      return "";
    }
    let out = "";
    let rest = line;
    while (rest !== "") {
      if (inComment) {
        const close = rest.indexOf("-->");
        if (close < 0) return out;
        inComment = false;
        rest = rest.slice(close + 3);
      } else {
        const open = rest.indexOf("<!--");
        if (open < 0) {
          out += rest;
          break;
        }
        out += rest.slice(0, open);
        inComment = true;
        rest = rest.slice(open + 4);
      }
    }
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(out);
    if (opening?.[1] !== undefined) {
      fence = opening[1];
      return "";
    }
    // Four spaces or a tab open an indented code block: not a line that states anything.
    return /^( {4}|\t)/.test(out) ? "" : out;
  });
}

function findStatuses(lines: readonly string[]): StatusLine[] {
  const found: StatusLine[] = [];
  const end = frontMatterEnd(lines);
  for (let i = 1; i < end; i++) {
    const m = FRONT_STATUS.exec(lines[i] ?? "");
    if (m?.[1] !== undefined) found.push({ line: i, word: m[1], value: m[1].toLowerCase() });
  }
  for (let i = Math.max(0, end + 1); i < lines.length; i++) {
    const text = lines[i] ?? "";
    const m = STATUS_LINE.exec(text);
    if (m?.[1] !== undefined) found.push({ line: i, word: m[1], value: m[1].toLowerCase() });
    // MADR: a "## Status" heading, the value on the next non-empty line.
    if (/^#{1,6}\s+status\s*$/i.test(text)) {
      const j = lines.findIndex((l, k) => k > i && l.trim() !== "");
      const word = /^\s*([A-Za-z]+)/.exec(lines[j] ?? "")?.[1];
      if (word !== undefined) found.push({ line: j, word, value: word.toLowerCase() });
    }
  }
  return found;
}

function parseRequires(lines: readonly string[]): {
  requires: string[] | null;
  problems: string[];
} {
  const found = lines.flatMap((line, i) => {
    const m = REQUIRES_LINE.exec(line);
    return m === null ? [] : [{ line: i, rest: (m[1] ?? "").replace(/\*\*/g, "").trim() }];
  });
  const first = found[0];
  if (first === undefined) return { requires: null, problems: [] };
  if (found.length > 1) {
    return {
      requires: null,
      problems: [
        `expected one \`Requires:\` line; found ${found.length} (lines ${found.map((f) => f.line + 1).join(", ")})`,
      ],
    };
  }
  const { rest } = first;
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

/** Parses an ADR's title, status line and required protocols. */
export function parseAdr(text: string, file: string): AdrDoc {
  const lines = proseLines(text);
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
  const statuses = findStatuses(lines);
  const requires = parseRequires(lines);
  const problems =
    statuses.length > 1
      ? [
          `expected one status line; found ${statuses.length} (lines ${statuses.map((s) => s.line + 1).join(", ")})`,
          ...requires.problems,
        ]
      : requires.problems;
  return { file, id, title, status: statuses[0] ?? null, requires: requires.requires, problems };
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
  // The word was read from the normalised line; the file's own line must spell it the same way.
  if (start < 0 || line !== normaliseAdrText(line)) {
    throw new UsageError(
      `line ${status.line + 1}: the status is written with invisible or compatibility characters; write it plainly`,
    );
  }
  lines[status.line] = line.slice(0, start) + word + line.slice(start + status.word.length);
  return lines.join("\n");
}

import { basename } from "node:path";

import { UsageError } from "../core/errors.js";
import { normaliseAdrText, readProse } from "./prose-lines.js";

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
const STATUS_LINE = /^\s*(?:[•*-]\s+)?(?:\*\*)?status(?:\*\*)?\s*:(.*)$/i;
const FRONT_STATUS = /^status\s*:(.*)$/i;
const REQUIRES_LINE = /^\s*(?:[•*-]\s+)?(?:\*\*)?requires(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*)$/i;
// A status or Requires line, or a "## Status" heading, wherever HTML hides it.
const HIDDEN_CLAIM = /(?:^|[\s*•>(-])(?:status|requires)\b[\s*]*:|#{1,6}\s+status\s*$/im;

/** The status words an ADR may state: a closed list, so a look-alike is an error, not another status. */
export const STATUS_WORDS = [
  "proposed",
  "accepted",
  "rejected",
  "deprecated",
  "superseded",
] as const;

function frontMatterEnd(lines: readonly string[]): number {
  if (lines[0]?.trim() !== "---") return -1;
  return lines.findIndex((l, i) => i > 0 && l.trim() === "---");
}

type Found = { line: number } & ({ status: StatusLine } | { problem: string });

// The first word after "Status:", which must be one of STATUS_WORDS.
function statusWord(rest: string, line: number): Found {
  const word = /^[\s*"'_]*([\p{L}\p{M}\p{N}_-]*)/u.exec(rest)?.[1] ?? "";
  const value = word.toLowerCase();
  if ((STATUS_WORDS as readonly string[]).includes(value))
    return { line, status: { line, word, value } };
  return {
    line,
    problem: `line ${line + 1}: status: expected one of ${STATUS_WORDS.join(", ")}; got "${rest.trim().slice(0, 40)}"`,
  };
}

function findStatuses(lines: readonly string[]): Found[] {
  const found: Found[] = [];
  const end = frontMatterEnd(lines);
  for (let i = 1; i < end; i++) {
    const m = FRONT_STATUS.exec(lines[i] ?? "");
    if (m?.[1] !== undefined) found.push(statusWord(m[1], i));
  }
  for (let i = Math.max(0, end + 1); i < lines.length; i++) {
    const text = lines[i] ?? "";
    const m = STATUS_LINE.exec(text);
    if (m?.[1] !== undefined) found.push(statusWord(m[1], i));
    // MADR: a "## Status" heading, the value on the next non-empty line.
    if (/^#{1,6}\s+status\s*$/i.test(text)) {
      const j = lines.findIndex((l, k) => k > i && l.trim() !== "");
      if (j >= 0) found.push(statusWord(lines[j] ?? "", j));
    }
  }
  return found;
}

// A status or Requires line inside HTML is read by no one and by the gate as nothing: an error.
function hiddenClaims(hidden: readonly string[]): string[] {
  return hidden.flatMap((h, i) =>
    HIDDEN_CLAIM.test(h)
      ? [
          `line ${i + 1}: a status or Requires line inside an HTML block or comment; write it as plain Markdown outside HTML`,
        ]
      : [],
  );
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
  const { lines, hidden } = readProse(text);
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
  const found = findStatuses(lines);
  const statuses = found.flatMap((f) => ("status" in f ? [f.status] : []));
  const requires = parseRequires(lines);
  const problems = [
    ...hiddenClaims(hidden),
    ...found.flatMap((f) => ("problem" in f ? [f.problem] : [])),
    ...(found.length > 1
      ? [
          `expected one status line; found ${found.length} (lines ${found.map((f) => f.line + 1).join(", ")})`,
        ]
      : []),
    ...requires.problems,
  ];
  // A refused status word is no status: never silently a different one.
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

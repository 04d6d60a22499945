// What a reader of an ADR sees as prose, line by line: normalised text outside code blocks and
// HTML. What HTML hides (a `<script>` or `<div>` block, a comment) is kept apart, so a status
// line placed there is an error rather than a second, invisible status.

// Characters a reader does not see: every default-ignorable code point (zero-width spaces and
// joiners, U+034F, variation selectors, bidi controls, soft hyphens …).
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u180e]/gu;

/**
 * The text as the gate matches it: invisible characters removed, then NFKC (`Ｓtatus` is
 * `Status`, `Acc\u034fepted` is `Accepted`), then invisible characters removed again.
 */
export function normaliseAdrText(text: string): string {
  return text.replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "");
}

/** An ADR's lines as read: the visible prose, and what HTML hides on each line. */
export interface Prose {
  /** The prose lines; code blocks, HTML blocks and comments are empty (line numbers kept). */
  lines: string[];
  /** Per line, the text an HTML block or comment hides there ("" when nothing). */
  hidden: string[];
}

// CommonMark's HTML block starts (kinds 1-5 end at a closing marker, 6-7 at a blank line).
const CLOSED_BY: readonly [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
const TO_BLANK = [
  /^ {0,3}<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)/i,
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/,
];

type Block = { end: RegExp } | { blank: true } | null;

function htmlStart(line: string): Block {
  for (const [start, end] of CLOSED_BY) if (start.test(line)) return { end };
  return TO_BLANK.some((r) => r.test(line)) ? { blank: true } : null;
}

// Removes inline comments from a line; returns the visible part, the hidden part and whether a
// comment is still open at the end of the line.
function stripComments(line: string, open: boolean): { out: string; hid: string; open: boolean } {
  let out = "";
  let hid = "";
  let rest = line;
  while (rest !== "") {
    const at = rest.indexOf(open ? "-->" : "<!--");
    if (at < 0) {
      if (open) hid += rest;
      else out += rest;
      break;
    }
    if (open) hid += `${rest.slice(0, at)} `;
    else out += rest.slice(0, at);
    rest = rest.slice(at + (open ? 3 : 4));
    open = !open;
  }
  return { out, hid, open };
}

/** Reads `text` as a person sees it rendered: normalised, without code, HTML or comments. */
export function readProse(text: string): Prose {
  const source = normaliseAdrText(text).split("\n");
  const lines: string[] = [];
  const hidden: string[] = [];
  let fence: string | null = null;
  let block: Block = null;
  let inComment = false;
  for (const line of source) {
    if (block !== null) {
      const ends = "end" in block ? block.end.test(line) : line.trim() === "";
      lines.push("");
      hidden.push(line);
      if (ends) block = null;
      continue;
    }
    if (fence !== null) {
      const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
      if (close.test(line)) fence = null;
      lines.push("");
      hidden.push("");
      continue;
    }
    if (!inComment) {
      const start = htmlStart(line);
      if (start !== null) {
        const ends = "end" in start && start.end.test(line.slice(2));
        block = ends ? null : start;
        lines.push("");
        hidden.push(line);
        continue;
      }
    }
    const { out, hid, open } = stripComments(line, inComment);
    inComment = open;
    hidden.push(hid);
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(out);
    if (opening?.[1] !== undefined) {
      fence = opening[1];
      lines.push("");
      continue;
    }
    // Four spaces or a tab open an indented code block: not a line that states anything.
    lines.push(/^( {4}|\t)/.test(out) ? "" : out);
  }
  return { lines, hidden };
}

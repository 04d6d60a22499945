// Secret values found by shape beyond core/redact.ts's own table: secretlint's recommended preset
// (a maintained pattern set: npm, GitLab, GitHub, Slack, AWS, GCP, SendGrid, Shopify, Hugging Face,
// Linear, Notion, 1Password, Vault, Vercel, Databricks, Docker, Figma, Grafana, Groq, private keys,
// database connection strings …), run through its rule interface one text at a time; and the
// values of the secret-named variables this process holds, wherever they appear.
import { createRequire } from "node:module";

import { InternalError } from "./errors.js";

/** A found secret: its offsets in the text. */
export interface Found {
  start: number;
  end: number;
}

// The part of secretlint's rule interface (@secretlint/types) a scan needs.
interface RuleContext {
  sharedOptions: Record<string, unknown>;
  createTranslator(messages: unknown): (id: string, data?: unknown) => object;
  report(descriptor: { range: readonly [number, number] }): void;
  ignore(descriptor: unknown): void;
}
interface Rule {
  meta: { id: string; type: string; supportedContentTypes: readonly string[] };
  create(context: RuleContext, options: object): { file?(source: object): unknown };
}

// URL passwords: redact.ts's own rule takes the password alone, where this one takes user and host.
const OWN_RULE_COVERS = ["@secretlint/secretlint-rule-basicauth"];

/** No token of the preset's is shorter: shorter texts are not scanned (most strings of a request). */
const MIN_SCANNED = 16;

let reported: Found[] = [];
let scanners: { id: string; file: (source: object) => unknown }[] | null = null;

// Loaded on first use (about 230 KB of rules), so commands that redact nothing never parse it.
function loadScanners(): { id: string; file: (source: object) => unknown }[] {
  const preset = createRequire(import.meta.url)("@secretlint/secretlint-rule-preset-recommend") as {
    creator: { rules: readonly Rule[] };
  };
  const context: RuleContext = {
    sharedOptions: {},
    createTranslator: () => (id) => ({ message: id, messageId: id }),
    report: ({ range }) => reported.push({ start: range[0], end: range[1] }),
    // A `secretlint-disable` comment in the text is the text's say, never redaction's: ignored.
    ignore: () => undefined,
  };
  return preset.creator.rules
    .filter((r) => r.meta.type === "scanner" && !OWN_RULE_COVERS.includes(r.meta.id))
    .filter((r) => r.meta.supportedContentTypes.some((t) => t === "text" || t === "all"))
    .flatMap((r) => {
      const handler = r.create(context, {});
      return handler.file === undefined
        ? []
        : [{ id: r.meta.id, file: handler.file.bind(handler) }];
    });
}

/** Where the maintained pattern set finds a secret in `text`. */
export function presetFinds(text: string): Found[] {
  if (text.length < MIN_SCANNED) return [];
  scanners ??= loadScanners();
  reported = [];
  const source = { content: text, contentType: "text", ext: "", hasBOM: false };
  for (const scanner of scanners) {
    const result = scanner.file(source);
    // Redaction is synchronous: a rule that reports later would report too late to count.
    if (result instanceof Promise) {
      result.catch(() => undefined);
      throw new InternalError(
        `${scanner.id} scans asynchronously; redaction needs a synchronous rule`,
      );
    }
  }
  return reported;
}

// Not global: a global regex carries lastIndex from one text to the next.
const KEY_BEGIN = /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = /-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/;

/**
 * Private key blocks in `text`: BEGIN to END (or to the end of a text cut short); a text cut
 * before its BEGIN (an output's tail) loses the base64 lines above its first END.
 */
export function privateKeyFinds(text: string): Found[] {
  if (!text.includes("PRIVATE KEY")) return [];
  const spans: Found[] = [];
  const firstEnd = KEY_END.exec(text);
  const firstBegin = KEY_BEGIN.exec(text);
  if (firstEnd?.index !== undefined && (firstBegin?.index ?? Infinity) > firstEnd.index) {
    let start = firstEnd.index;
    for (;;) {
      const above = text.lastIndexOf("\n", start - 2) + 1;
      if (start === 0 || !/^[A-Za-z0-9+/=]+\r?\n$/.test(text.slice(above, start))) break;
      start = above;
    }
    spans.push({ start, end: firstEnd.index + firstEnd[0].length });
  }
  for (const begin of text.matchAll(new RegExp(KEY_BEGIN, "g"))) {
    const at = begin.index;
    const end = KEY_END.exec(text.slice(at));
    spans.push({ start: at, end: end === null ? text.length : at + end.index + end[0].length });
  }
  return spans;
}

/** The shortest value of a secret-named variable redacted wherever it appears (shorter ones, `1`, `true`, would take every such word with them). */
export const MIN_HELD_SECRET = 8;

/** The values of the secret-named variables of `env`, longest first. */
export function heldSecrets(
  env: Readonly<Record<string, string | undefined>>,
  isSecretName: (name: string) => boolean,
): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => value !== undefined && isSecretName(name))
    .map(([, value]) => value as string)
    .filter((value) => value.length >= MIN_HELD_SECRET && !/^<redacted:\d+>$/.test(value));
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/** Every occurrence of each of `values` in `text`. */
export function literalFinds(text: string, values: readonly string[]): Found[] {
  const found: Found[] = [];
  for (const value of values) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length))
      found.push({ start: at, end: at + value.length });
  }
  return found;
}

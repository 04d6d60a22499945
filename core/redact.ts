// The one redaction rule: secrets by the name that holds them, by the shape of the value (the table
// below, then a maintained pattern set: core/secret-patterns.ts), and by being the value of a
// secret-named variable this process or the redacted environment holds; each replaced once by
// `<redacted:N>` (N its byte length). shims/assets/record.awk carries the only other copy of the
// table (a shim cannot start Node); core/test/fixtures/redaction/cases.json holds both to it.
import { heldSecrets, literalFinds, presetFinds, privateKeyFinds } from "./secret-patterns.js";

/** Names that always carry a credential, listed so tests can name them. */
export const KNOWN_SECRET_NAMES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "OPENAI_API_KEY",
  "CODEX_API_KEY",
];

const SECRET_PATTERN = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION_ID|AUTH)/i;

/** True when a variable's name says it holds a key, token or other secret. */
export function isSecretName(name: string): boolean {
  return KNOWN_SECRET_NAMES.includes(name) || SECRET_PATTERN.test(name);
}

/** Replaces a secret's value with a marker that keeps its length, e.g. `<redacted:51>`. */
export function redactValue(value: string): string {
  return `<redacted:${Buffer.byteLength(value, "utf8")}>`;
}

const TOKEN = /<redacted:\d+>/g;
const isToken = (value: string) => /^<redacted:\d+>$/.test(value);

// Values that are secrets whatever holds them: vendor key formats, long enough to be real. The awk
// copy holds these too; the maintained set (presetFinds) adds many more here.
const KEY_SHAPES: readonly RegExp[] = [
  /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, // Anthropic, OpenAI
  /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}/g,
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g, // AWS access key ids
  /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36,}/g, // npm access tokens
  /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g, // GitLab personal access tokens
  /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe secret and restricted keys
  /(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_.-]{30})eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, // JWT
];

let processSecrets: string[] | null = null;

/** The values of this process's secret-named variables, read once; call again after changing them. */
export function forgetHeldSecrets(): void {
  processSecrets = null;
}

function held(extra?: Readonly<Record<string, string>>): string[] {
  processSecrets ??= heldSecrets(process.env, isSecretName);
  return extra === undefined
    ? processSecrets
    : [...processSecrets, ...heldSecrets(extra, isSecretName)];
}

// Header names whose value is a credential (besides every secret-looking name).
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);
const isSecretHeader = (name: string) =>
  SECRET_HEADERS.has(name.toLowerCase()) || isSecretName(name);

// Flag words that take a secret as their value (`--api-key X`, `--token=X`).
const SECRET_FLAG_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "credential",
  "credentials",
  "cookie",
]);

/** True for `--api-key`, `--auth-token`, `-password`…: a flag whose value is a secret. */
export function isSecretFlag(flag: string): boolean {
  const match = /^--?([A-Za-z][A-Za-z0-9_-]*)$/.exec(flag);
  const last = match?.[1]?.split(/[-_]/).pop()?.toLowerCase();
  return last !== undefined && SECRET_FLAG_WORDS.has(last);
}

interface Span {
  start: number;
  end: number;
  /** The secret's own length when it differs from the text's (an escaped JSON string). */
  bytes?: number;
}

// `re` must carry the `d` flag when `group` is not 0: the group's own offsets are needed.
function* matches(text: string, re: RegExp, group = 0): Generator<Span> {
  for (const m of text.matchAll(re)) {
    const at = m.indices?.[group] ?? (group === 0 ? [m.index, m.index + m[0].length] : undefined);
    if (at !== undefined && at[1] > at[0]) yield { start: at[0], end: at[1] };
  }
}

// `Authorization: Bearer x` keeps its scheme word; the credential after it is the secret.
function headerSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(/(^|\n)[ \t]*([A-Za-z0-9_-]+)[ \t]*:[ \t]*([^\r\n]*)/g)) {
    const [whole, , name = "", raw = ""] = m;
    if (!isSecretHeader(name) || m.index === undefined) continue;
    const value = raw.trimEnd();
    const scheme = /^(?:Bearer|Basic|Digest)[ \t]+/i.exec(value)?.[0].length ?? 0;
    const at = m.index + whole.length - raw.length;
    if (value.length > scheme) spans.push({ start: at + scheme, end: at + value.length });
  }
  return spans;
}

// `API_KEY=x`, `export TOKEN="x"`, `-c foo.api_key='x'`: an assignment to a secret name, per line.
function assignmentSpans(text: string): Span[] {
  const spans: Span[] = [];
  const re = /(^|\n)[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*([^\r\n]*)/g;
  for (const m of text.matchAll(re)) {
    const [, , name = "", raw = ""] = m;
    if (!isSecretName(name.split(".").pop() ?? "") || m.index === undefined) continue;
    let value = raw.trimEnd();
    let offset = m.index + m[0].length - raw.length;
    const quote = /^(["'])(.*)\1$/.exec(value);
    if (quote?.[2] !== undefined) {
      value = quote[2];
      offset += 1;
    }
    if (value !== "") spans.push({ start: offset, end: offset + value.length });
  }
  return spans;
}

function valueSpans(text: string, secrets: readonly string[]): Span[] {
  return [
    ...KEY_SHAPES.flatMap((re) => [...matches(text, re)]),
    ...privateKeyFinds(text),
    ...presetFinds(text),
    ...literalFinds(text, secrets),
    ...matches(text, /\b(?:Bearer|Basic)[ \t]+([A-Za-z0-9._~+/=-]{8,})/dgi, 1),
    ...matches(text, /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:([^\s@/]+)@/dgi, 1),
    ...headerSpans(text),
    ...assignmentSpans(text),
  ];
}

// A JSON text's string values under secret-named keys (`{"env":{"API_TOKEN":"x"}}`), in place.
function jsonFieldSpans(text: string): Span[] {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return [];
  try {
    JSON.parse(trimmed);
  } catch {
    return [];
  }
  const spans: Span[] = [];
  // In valid JSON every quote outside a string opens one, so a left-to-right scan finds them all.
  const strings = [...text.matchAll(/"(?:[^"\\]|\\.)*"/g)];
  strings.forEach((m, i) => {
    const next = strings[i + 1];
    if (m.index === undefined || next?.index === undefined) return;
    const between = text.slice(m.index + m[0].length, next.index);
    if (!/^\s*:\s*$/.test(between) || !isSecretName(JSON.parse(m[0]) as string)) return;
    const decoded = JSON.parse(next[0]) as string;
    spans.push({
      start: next.index + 1,
      end: next.index + next[0].length - 1,
      bytes: Buffer.byteLength(decoded, "utf8"),
    });
  });
  return spans.filter((s) => s.end > s.start);
}

// Overlapping finds are one secret: merged, redacted once, never inside an earlier redaction.
function apply(text: string, spans: readonly Span[]): string {
  const kept = [...text.matchAll(TOKEN)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
  const sorted = spans
    .filter((s) => !kept.some((k) => s.start < k.end && k.start < s.end))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && span.start < last.end) {
      if (span.end > last.end) merged[merged.length - 1] = { start: last.start, end: span.end };
      else if (span.start !== last.start || span.end !== last.end) delete last.bytes;
    } else merged.push({ ...span });
  }
  let out = "";
  let at = 0;
  for (const span of merged) {
    const secret = text.slice(span.start, span.end);
    out += text.slice(at, span.start);
    out += `<redacted:${span.bytes ?? Buffer.byteLength(secret, "utf8")}>`;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Free text with every secret in it redacted: secret-shaped values (keys, tokens, private keys,
 * bearer tokens, URL passwords…) and the values of the secret-named variables this process holds,
 * and those of `env` when given (the environment the text belongs with).
 */
export function redactText(text: string, env?: Readonly<Record<string, string>>): string {
  return apply(text, [...valueSpans(text, held(env)), ...jsonFieldSpans(text)]);
}

/** A copy of `env` with secret-named values redacted whole, and secrets in the rest (theirs included). */
export function redactEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    out[name] = isSecretName(name) && !isToken(value) ? redactValue(value) : redactText(value, env);
  }
  return out;
}

/**
 * An argv with secrets redacted: a secret flag's value, secret JSON fields, secret-shaped values,
 * held values (this process's, and those of `env`, the environment the argv was launched with).
 */
export function redactArgv(
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): string[] {
  return args.map((arg, i) => {
    const previous = args[i - 1];
    if (previous !== undefined && isSecretFlag(previous) && !arg.startsWith("-"))
      return isToken(arg) ? arg : redactValue(arg);
    const eq = /^(--?[A-Za-z][A-Za-z0-9_-]*)=(.+)$/s.exec(arg);
    if (eq?.[1] !== undefined && eq[2] !== undefined && isSecretFlag(eq[1]))
      return `${eq[1]}=${isToken(eq[2]) ? eq[2] : redactValue(eq[2])}`;
    return redactText(arg, env);
  });
}

/** A deep copy of a JSON-like value with every string redacted by value (object keys are kept; `env` as for redactText). */
export function redactStrings<T>(value: T, env?: Readonly<Record<string, string>>): T {
  if (typeof value === "string") return redactText(value, env) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item, env)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactStrings(item as unknown, env)]),
    ) as T;
  }
  return value;
}

// Child environment policy: a child gets an allow-listed environment, never this process's whole one.

/** Variables a child may inherit from the parent, by exact name. */
export const INHERITED_NAMES: readonly string[] = [
  "PATH",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "USER",
  "LOGNAME",
  "SHELL",
  "NO_COLOR",
  "FORCE_COLOR",
];

/** Variables a child may inherit by prefix (locale settings). */
const INHERITED_PREFIXES: readonly string[] = ["LC_"];

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

/** What a child's environment is built from. */
export interface ChildEnvInput {
  /** The parent's environment (usually process.env); only allow-listed, non-secret names pass. */
  parent: Readonly<Record<string, string | undefined>>;
  /** Extra non-secret names the caller allows from the parent (e.g. an adapter's routing variables). */
  allow?: readonly string[];
  /** Values the caller sets explicitly (HOME of a probe cell, a fake endpoint, a dummy key). */
  set?: Readonly<Record<string, string>>;
}

/** Builds a child's environment from the allow-list; parent secrets never pass, whatever `allow` says. */
export function buildChildEnv(input: ChildEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  const allowed = new Set([...INHERITED_NAMES, ...(input.allow ?? [])]);
  for (const [name, value] of Object.entries(input.parent)) {
    if (value === undefined || isSecretName(name)) continue;
    if (allowed.has(name) || INHERITED_PREFIXES.some((p) => name.startsWith(p))) env[name] = value;
  }
  return { ...env, ...(input.set ?? {}) };
}

/** Replaces a secret's value with a marker that keeps its length, e.g. `<redacted:51>`. */
export function redactValue(value: string): string {
  return `<redacted:${Buffer.byteLength(value, "utf8")}>`;
}

/** A copy of `env` with every secret-named value redacted, for records and screens. */
export function redactEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    out[name] = isSecretName(name) ? redactValue(value) : value;
  }
  return out;
}

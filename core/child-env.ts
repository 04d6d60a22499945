// Child environment policy: a child gets an allow-listed environment, never this process's whole one.
import { isSecretName } from "./redact.js";

// The redaction rule lives in redact.ts; these names are kept here for the modules that import them.
export { isSecretName, KNOWN_SECRET_NAMES, redactEnv, redactValue } from "./redact.js";

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

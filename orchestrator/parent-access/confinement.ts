// Confinement evidence that needs no session records: no_new_privs and Codex's sandbox variables.
import type { ParentEvidence } from "./parent-access.js";

/** What the Linux confinement check found: set, clear, or not establishable. */
export type Confinement = "set" | "clear" | "unknown";

/** Reads `NoNewPrivs:` from /proc/<pid>/status text; null when the text has no such line. */
export function parseNoNewPrivs(statusText: string): boolean | null {
  const match = /^NoNewPrivs:\s*(\d+)\s*$/m.exec(statusText);
  if (!match) return null;
  return match[1] !== "0";
}

/**
 * The no_new_privs check. The vendor sandboxes set no_new_privs on Linux, so a set flag means
 * sandboxed; off Linux there is no such check and the result is `unknown` with no evidence item.
 */
export function noNewPrivsEvidence(
  linux: boolean,
  statusText: string | null,
): { confinement: Confinement; evidence: ParentEvidence | null } {
  if (!linux) return { confinement: "unknown", evidence: null };
  const flag = statusText === null ? null : parseNoNewPrivs(statusText);
  if (flag === null) {
    const detail = "cannot read NoNewPrivs from /proc/self/status: confinement not established";
    return { confinement: "unknown", evidence: { source: "no_new_privs", detail, passed: false } };
  }
  if (flag) {
    const detail = "NoNewPrivs: 1 in /proc/self/status: this process runs under a sandbox";
    return { confinement: "set", evidence: { source: "no_new_privs", detail, passed: false } };
  }
  const detail = "NoNewPrivs: 0 in /proc/self/status";
  return { confinement: "clear", evidence: { source: "no_new_privs", detail, passed: true } };
}

/** Any `CODEX_SANDBOX*` variable means a Codex sandbox is in force. */
export function codexSandboxEvidence(
  env: Readonly<Record<string, string | undefined>>,
): ParentEvidence {
  const names = Object.keys(env)
    .filter((name) => name.startsWith("CODEX_SANDBOX") && env[name] !== undefined)
    .sort();
  if (names.length === 0) {
    return { source: "CODEX_SANDBOX", detail: "no CODEX_SANDBOX* variable set", passed: true };
  }
  const detail = `${names.map((n) => `${n}=${env[n] ?? ""}`).join(", ")}: a Codex sandbox is in force`;
  return { source: "CODEX_SANDBOX", detail, passed: false };
}

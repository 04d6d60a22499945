// Markers and sentinels: the placeholders a fixture and a script use, made unique per run.
import { randomBytes } from "node:crypto";
import { join } from "node:path";

/** A fresh per-run nonce: 12 hex characters, so a stale file cannot fake a hit. */
export function newNonce(): string {
  return randomBytes(6).toString("hex");
}

/** The text a marker NAME becomes in this run: `WITNESS-<NAME>-<nonce>`. */
export function markerValue(name: string, nonce: string): string {
  return `WITNESS-${name}-${nonce}`;
}

/** Replaces every `{{marker:NAME}}` in `text` with its per-run value. */
export function plantMarkers(text: string, nonce: string): string {
  return text.replace(/\{\{marker:([A-Za-z0-9_]+)\}\}/g, (_m, name: string) =>
    markerValue(name, nonce),
  );
}

/** The absolute path a sentinel NAME stands for inside a sentinel directory. */
export function sentinelPath(sentinelDir: string, name: string): string {
  return join(sentinelDir, name);
}

/** Replaces every `{{sentinel:NAME}}` in `text` with `pathOf(NAME)`. */
export function resolveSentinels(text: string, pathOf: (name: string) => string): string {
  return text.replace(/\{\{sentinel:([A-Za-z0-9_]+)\}\}/g, (_m, name: string) => pathOf(name));
}

/** Applies `resolveSentinels` to every string inside a JSON-like value. */
export function resolveSentinelsDeep<T>(value: T, pathOf: (name: string) => string): T {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) =>
      typeof v === "string" ? resolveSentinels(v, pathOf) : v,
    ),
  ) as T;
}

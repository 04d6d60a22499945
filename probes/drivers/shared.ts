// What several drivers share: the dummy credential, the wording of a tool that does not exist,
// and settings files planted under a fixture's own.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

import { hasErrno } from "../../core/fs-errors.js";

/** A dummy credential: the CLIs insist on a key, the fake server ignores it. */
export const DUMMY_KEY = "witness-dummy-key-not-a-secret";

/** How the CLIs say a tool is not there (Claude Code, Codex, and the generic phrasings). */
export const NO_SUCH_TOOL =
  /No such tool available|unsupported call|unsupported custom tool call|unknown tool|tool .* not found/i;

/** `base` with `over` laid on top, objects merged key by key (arrays and scalars replaced). */
export function deepMerge(
  base: Readonly<Record<string, unknown>>,
  over: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = isPlainObject(under) && isPlainObject(value) ? deepMerge(under, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Writes a CLI's JSON settings file with `defaults` under whatever the fixture already planted
 * there (the fixture's values win). A planted file that is not a JSON object is left as it is:
 * how the CLI takes it is part of the observation.
 */
export async function plantJsonSettings(
  path: string,
  defaults: Readonly<Record<string, unknown>>,
): Promise<void> {
  let planted: unknown = {};
  try {
    planted = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    // Only an absent file starts from nothing; a planted file that is not JSON is left alone.
    if (!hasErrno(error, "ENOENT")) return;
  }
  if (!isPlainObject(planted)) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(deepMerge(defaults, planted), null, 2)}\n`);
}

import { readFile } from "node:fs/promises";

import { parse as parseYaml } from "yaml";
import type { z } from "zod";

import { firstLine } from "./error-text.js";
import { InputError, type InputIssue } from "./errors.js";
import { errnoCode } from "./fs-errors.js";

/** Turns zod issues into `path: message` lines a person can act on. */
export function zodIssues(error: z.ZodError): InputIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

/** Validates an already-parsed value; throws InputError naming `file` on failure. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InputError(file, zodIssues(result.error));
  return result.data;
}

/** Parses YAML or JSON text (JSON is valid YAML); a syntax error becomes an InputError. */
export function parseDocument(text: string, file: string): unknown {
  try {
    return parseYaml(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    return failInput(file, "", `not valid YAML or JSON: ${firstLine(error)}`);
  }
}

/**
 * The InputError for a file a user named that could not be read: the file, what it is (`the
 * file`, `the run state` …), the errno code, and optionally what to do about it.
 */
export function unreadableFile(
  file: string,
  error: unknown,
  what = "the file",
  hint?: string,
): InputError {
  const detail = `cannot read ${what} (${errnoCode(error)})${hint === undefined ? "" : `; ${hint}`}`;
  return new InputError(file, [{ path: "", message: detail }]);
}

/** Reads a file a user named; a failure is `unreadableFile`'s InputError. */
export async function readUserFile(file: string, what?: string, hint?: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw unreadableFile(file, error, what, hint);
  }
}

/** Reads a YAML/JSON file and validates it; a missing file is an InputError too. */
export async function readInput<S extends z.ZodType>(
  schema: S,
  file: string,
  what = "the file",
): Promise<z.infer<S>> {
  const text = (await readUserFile(file, what)).toString("utf8");
  return parseWith(schema, parseDocument(text, file), file);
}

function failInput(file: string, path: string, message: string): never {
  throw new InputError(file, [{ path, message }]);
}

import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";

import { parse as parseYaml } from "yaml";
import type { z } from "zod";

import { expandedProblem } from "./document-size.js";
import { firstLine } from "./error-text.js";
import { InputError, type InputIssue } from "./errors.js";
import { errnoCode } from "./fs-errors.js";

/** Turns zod issues into `path: message` lines a person can act on. */
export function zodIssues(error: z.ZodError): InputIssue[] {
  return error.issues.flatMap((issue) => issueLines(issue, []));
}

type Issue = z.core.$ZodIssue;

// A union none of whose shapes fit says only "Invalid input": when exactly one shape has no key
// the value lacks or does not allow at its top (the value picked that shape by its keys, e.g. a
// launch's `orchestrator:`), that shape's own issues are the ones a person can act on.
function issueLines(issue: Issue, prefix: PropertyKey[]): InputIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const fitting = issue.errors.filter(
      (branch) =>
        !branch.some(
          (i) =>
            i.path.length === 0 ||
            (i.path.length === 1 && i.code === "invalid_type" && i.input === undefined),
        ),
    );
    const only = fitting[0];
    if (fitting.length === 1 && only !== undefined) return only.flatMap((i) => issueLines(i, path));
  }
  return [{ path: path.map(String).join("."), message: issue.message }];
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

/**
 * Parses YAML or JSON text (JSON is valid YAML); a syntax error becomes an InputError, and so does
 * a document bigger than `maxBytes` once its aliases are expanded, or one that contains itself.
 */
export function parseDocument(
  text: string,
  file: string,
  maxBytes = DEFAULT_MAX_INPUT_BYTES,
): unknown {
  let value: unknown;
  try {
    // Not prettyErrors: building its excerpt for a 10 000-deep nesting ran node out of memory.
    value = parseYaml(text, { prettyErrors: false, uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    return failInput(file, "", `not valid YAML or JSON: ${firstLine(error)}${where(text, error)}`);
  }
  const problem = expandedProblem(value, maxBytes);
  if (problem !== null) failInput(file, "", problem);
  return value;
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

/** The largest file a user may hand witness unless a reader sets its own bound (16 MiB). */
export const DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Bounds on one input file, checked before its content is read. */
export interface InputLimits {
  /** The most bytes the file may have (default DEFAULT_MAX_INPUT_BYTES). */
  maxBytes?: number;
  /** Refuse a symlink instead of following it (a registered document must be the file itself). */
  noSymlink?: boolean;
}

/**
 * Reads a file a user named: a regular file (never a FIFO or device, which could block), within
 * its size bound, both checked before the content is read; a failure is an InputError.
 */
export async function readUserFile(
  file: string,
  what = "the file",
  hint?: string,
  limits: InputLimits = {},
): Promise<Buffer> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  let handle;
  try {
    if (limits.noSymlink === true && (await lstat(file)).isSymbolicLink()) {
      failInput(file, "", `expected ${what} as a regular file; got a symlink`);
    }
    // Non-blocking: opening a FIFO (a symlink can name one) waits for a writer otherwise.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw unreadableFile(file, error, what, hint);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) failInput(file, "", `expected ${what} as a regular file`);
    if (stat.size > maxBytes) {
      failInput(
        file,
        "",
        `expected at most ${maxBytes} bytes (the bound on ${what}); got ${stat.size}`,
      );
    }
    const bytes = await handle.readFile();
    // The file grew between the check and the read: the bound holds on what was read too.
    if (bytes.length > maxBytes) {
      failInput(file, "", `expected at most ${maxBytes} bytes (the bound on ${what}); got more`);
    }
    return bytes;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw unreadableFile(file, error, what, hint);
  } finally {
    await handle.close();
  }
}

/** Reads a YAML/JSON file and validates it; a missing file is an InputError too. */
export async function readInput<S extends z.ZodType>(
  schema: S,
  file: string,
  what = "the file",
  limits: InputLimits = {},
): Promise<z.infer<S>> {
  const text = (await readUserFile(file, what, undefined, limits)).toString("utf8");
  return parseWith(
    schema,
    parseDocument(text, file, limits.maxBytes ?? DEFAULT_MAX_INPUT_BYTES),
    file,
  );
}

/** ` at line L, column C` for a YAML error that says where it is (its offset), else nothing. */
function where(text: string, error: unknown): string {
  const offset = (error as { pos?: unknown } | null)?.pos;
  if (!Array.isArray(offset) || typeof offset[0] !== "number") return "";
  const before = text.slice(0, offset[0]);
  const line = before.split("\n").length;
  return ` at line ${line}, column ${offset[0] - before.lastIndexOf("\n")}`;
}

function failInput(file: string, path: string, message: string): never {
  throw new InputError(file, [{ path, message }]);
}

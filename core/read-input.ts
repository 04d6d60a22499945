import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { InputError, type InputIssue } from "./errors.js";

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
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return failInput(file, "", `not valid YAML or JSON: ${message ?? ""}`);
  }
}

/** Reads a YAML/JSON file and validates it; a missing file is an InputError too. */
export async function readInput<S extends z.ZodType>(schema: S, file: string): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return failInput(file, "", `cannot read the file (${code})`);
  }
  return parseWith(schema, parseDocument(text, file), file);
}

function failInput(file: string, path: string, message: string): never {
  throw new InputError(file, [{ path, message }]);
}

// A file the user asks a command to write (`--junit report.xml`): checked before any work starts,
// so a typo in its directory fails at once instead of after a long run.
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

import { writeFileAtomic } from "./atomic.js";
import { UsageError } from "./errors.js";

/** The absolute path of `file`; a UsageError (exit 2) unless its directory exists. */
export async function checkOutputFile(
  file: string,
  flag: string,
  cwd = process.cwd(),
): Promise<string> {
  const abs = resolve(cwd, file);
  const dir = dirname(abs);
  const found = await stat(dir).catch(() => null);
  if (found === null)
    throw new UsageError(`${flag} ${file}: the directory ${dir} does not exist; create it first`);
  if (!found.isDirectory()) throw new UsageError(`${flag} ${file}: ${dir} is not a directory`);
  const existing = await stat(abs).catch(() => null);
  if (existing?.isDirectory() === true)
    throw new UsageError(`${flag} ${file}: is a directory; name a file`);
  return abs;
}

/** Writes an output file whole (temp file, then rename). */
export async function writeOutputFile(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text);
}

import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { chmod, link, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { hasErrno } from "./fs-errors.js";

function tempPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
}

/** Writes a file by temp file then rename, so readers never see half of it (`mode`: its permissions). */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const temp = tempPathFor(file);
  try {
    await writeFile(temp, data, { flag: "wx", mode: options.mode ?? 0o644 });
    // The process umask may have narrowed the mode given at creation.
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic for where nothing may wait: a process's `exit` handler. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const temp = tempPathFor(file);
  try {
    writeFileSync(temp, data, { flag: "wx", mode: 0o644 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Writes a complete file at `file` only if that name is free; false when it is taken. */
export async function writeFileExclusive(
  file: string,
  data: string | Uint8Array,
): Promise<boolean> {
  const temp = tempPathFor(file);
  try {
    await writeFile(temp, data, { flag: "wx" });
    // link() fails with EEXIST instead of replacing, unlike rename(): never overwrite.
    await link(temp, file);
    return true;
  } catch (error) {
    if (hasErrno(error, "EEXIST")) return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

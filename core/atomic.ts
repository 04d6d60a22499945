import { randomBytes } from "node:crypto";
import { link, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

function tempPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
}

/** Writes a file by temp file then rename, so readers never see half of it. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = tempPathFor(file);
  try {
    await writeFile(temp, data, { flag: "wx" });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
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
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

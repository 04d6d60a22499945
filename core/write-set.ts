// Files that must appear together (a record's .md, .csv and .json): a manifest naming each file,
// its temporary name and its content's hash, then each file in full under its temporary name, then
// each hard-linked into place. A crash midway leaves the manifest, and the next writer or `witness
// clean` finishes or discards the set (core/set-recovery.ts).
import { createHash, randomBytes } from "node:crypto";
import { link, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { z } from "zod";

import { writeFileAtomic } from "./atomic.js";
import { hasErrno } from "./fs-errors.js";

/** A set's manifest name: `.witness-set.<pid>.<12 hex>.json`; the token is `<pid>.<hex>`. */
export const MANIFEST_NAME = /^\.witness-set\.([1-9]\d{0,9})\.([0-9a-f]{12})\.json$/;

/** A file name a set may write: one plain name in the set's directory, never a dotfile. */
export const setFileName = z
  .string()
  .regex(/^[^./\\\0][^/\\\0]{0,199}$/, "expected a plain file name (no slash, not a dotfile)");

/** The temporary name of `name` in the set with `token`: the only name recovery will link from. */
export function setTempName(name: string, token: string): string {
  return `.${name}.${token}.part`;
}

/** The manifest, as written and as recovery accepts it (nothing else in it, nothing loose). */
export const manifestSchema = z
  .object({
    files: z
      .array(
        z
          .object({
            name: setFileName,
            temp: z.string(),
            sha256: z.string().regex(/^[0-9a-f]{64}$/),
          })
          .strict(),
      )
      .min(1)
      .max(16),
  })
  .strict();
export type SetManifest = z.infer<typeof manifestSchema>;

/** The file operations a set write uses (injectable, so a test can fail one midway). */
export interface SetWriteIo {
  writeFile: (path: string, data: string) => Promise<void>;
  link: (from: string, to: string) => Promise<void>;
}

const DEFAULT_IO: SetWriteIo = {
  writeFile: (path, data) => writeFile(path, data, { flag: "wx" }),
  link,
};

/** The hex SHA-256 of a file's content, as a manifest holds it. */
export function contentHash(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Writes every file, all in one directory, or none: false (nothing left behind) when one of the
 * names is already taken. Never replaces an existing file.
 */
export async function writeFilesTogether(
  files: readonly { path: string; data: string }[],
  io: SetWriteIo = DEFAULT_IO,
): Promise<boolean> {
  const dir = dirname(files[0]?.path ?? ".");
  const token = `${process.pid}.${randomBytes(6).toString("hex")}`;
  const entries = files.map((f) => ({
    name: setFileName.parse(basename(f.path)),
    temp: setTempName(basename(f.path), token),
    sha256: contentHash(f.data),
  }));
  const temps = entries.map((e) => join(dir, e.temp));
  const manifest = join(dir, `.witness-set.${token}.json`);
  const linked: string[] = [];
  // The manifest goes last, so no temporary file is ever left without the manifest naming it.
  const discard = async () => {
    for (const path of [...linked, ...temps, manifest]) await rm(path, { force: true });
  };
  try {
    // The manifest goes first: recovery only ever touches a file a manifest names.
    await writeFileAtomic(manifest, JSON.stringify({ files: entries }));
    for (const [i, f] of files.entries()) await io.writeFile(temps[i] ?? "", f.data);
    for (const [i, f] of files.entries()) {
      try {
        await io.link(temps[i] ?? "", f.path);
      } catch (error) {
        if (!hasErrno(error, "EEXIST")) throw error;
        await discard();
        return false;
      }
      linked.push(f.path);
    }
  } catch (error) {
    await discard();
    throw error;
  }
  for (const temp of temps) await rm(temp, { force: true });
  await rm(manifest, { force: true });
  return true;
}

// Files that must appear together (a record's .md, .csv and .json): each written in full under a
// temporary name, then a manifest, then each hard-linked into place. A crash between two links
// leaves the manifest, and the next writer or `witness clean` links the rest (recoverFileSets).
import { randomBytes } from "node:crypto";
import { link, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { z } from "zod";

import { writeFileAtomic } from "./atomic.js";
import { hasErrno } from "./fs-errors.js";
import { ownerAlive } from "./owner.js";

const MANIFEST = /^\.witness-set\.(\d+)\.([0-9a-f]+)\.json$/;
const PART = /^\..+\.(\d+)\.([0-9a-f]+)\.part$/;

const manifestSchema = z.object({
  files: z.array(z.object({ name: z.string(), temp: z.string() })),
});

/** The file operations a set write uses (injectable, so a test can fail one midway). */
export interface SetWriteIo {
  writeFile: (path: string, data: string) => Promise<void>;
  link: (from: string, to: string) => Promise<void>;
}

const DEFAULT_IO: SetWriteIo = {
  writeFile: (path, data) => writeFile(path, data, { flag: "wx" }),
  link,
};

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
  const temps = files.map((f) => join(dir, `.${basename(f.path)}.${token}.part`));
  const manifest = join(dir, `.witness-set.${token}.json`);
  const linked: string[] = [];
  const discard = async () => {
    for (const path of [...linked, manifest, ...temps]) await rm(path, { force: true });
  };
  try {
    for (const [i, f] of files.entries()) await io.writeFile(temps[i] ?? "", f.data);
    const entries = files.map((f, i) => ({
      name: basename(f.path),
      temp: basename(temps[i] ?? ""),
    }));
    await writeFileAtomic(manifest, JSON.stringify({ files: entries }));
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
  // The manifest goes first: parts without one are only ever cleared, never linked.
  await rm(manifest, { force: true });
  for (const temp of temps) await rm(temp, { force: true });
  return true;
}

/** What recovery did in one directory. */
export interface SetRecovery {
  /** Sets whose missing files were linked into place (each a list of file paths). */
  completed: string[][];
  /** Partial temporary files removed (a crash before any file was linked). */
  discarded: string[];
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

/** Finishes the sets a crashed writer left in `dir` and clears its partial files; live writers' are left alone. */
export async function recoverFileSets(dir: string): Promise<SetRecovery> {
  const done: SetRecovery = { completed: [], discarded: [] };
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return done;
  }
  const dead = (pid: string) => !ownerAlive({ pid: Number(pid), start: null });
  for (const name of names) {
    const m = MANIFEST.exec(name);
    if (m === null || !dead(m[1] ?? "")) continue;
    const manifestPath = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(manifestPath, "utf8"));
    } catch {
      continue;
    }
    const parsed = manifestSchema.safeParse(raw);
    if (!parsed.success) continue;
    const paths: string[] = [];
    for (const entry of parsed.data.files) {
      const final = join(dir, entry.name);
      const temp = join(dir, entry.temp);
      paths.push(final);
      try {
        await link(temp, final);
      } catch (error) {
        // Linked before the crash (the same file), or, if another file took the name, left as it is.
        if (!hasErrno(error, "EEXIST") && !hasErrno(error, "ENOENT")) throw error;
        if (hasErrno(error, "EEXIST") && !(await sameFile(temp, final))) continue;
      }
    }
    await rm(manifestPath, { force: true });
    for (const entry of parsed.data.files) await rm(join(dir, entry.temp), { force: true });
    done.completed.push(paths);
  }
  const left = await readdir(dir);
  for (const name of left) {
    const m = PART.exec(name);
    if (m === null || !dead(m[1] ?? "")) continue;
    // A manifest that could not be read keeps its parts: they are the only copy of the data.
    if (left.includes(`.witness-set.${m[1]}.${m[2]}.json`)) continue;
    await rm(join(dir, name), { force: true });
    done.discarded.push(join(dir, name));
  }
  return done;
}

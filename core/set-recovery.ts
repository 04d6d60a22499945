// Finishing or discarding the file sets (core/write-set.ts) a crashed writer left. A manifest is a
// file in the directory, which a checkout may carry too, so nothing in it is trusted: it must be a
// regular file in witness's own shape, each file it names a plain name in its directory, each
// temporary name exactly the one its own token gives, and each temporary file's content the hash
// it records. Nothing outside the directory, and no symlink, is ever followed.
import { constants } from "node:fs";
import { link, lstat, open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

import { firstLine } from "./error-text.js";
import { hasErrno } from "./fs-errors.js";
import { ownerAlive } from "./owner.js";
import {
  contentHash,
  MANIFEST_NAME,
  manifestSchema,
  type SetManifest,
  setTempName,
} from "./write-set.js";

/** What recovery did in one directory. */
export interface SetRecovery {
  /** Sets whose missing files were linked into place (each a list of file paths). */
  completed: string[][];
  /** Temporary files removed (a crash before the set's files were all written). */
  discarded: string[];
  /** Manifests of dead writers left as they are, and why (witness does not touch what it cannot prove it made). */
  kept: { manifest: string; why: string }[];
}

const MAX_MANIFEST_BYTES = 64 * 1024;
/** Above any record witness writes (128 MiB); a bigger file is not one of a set's. */
const MAX_PART_BYTES = 256 * 1024 * 1024;

type Found = "absent" | "matching" | "different" | "not a regular file";

/** Reads a regular file without following a symlink (null: absent; "not a regular file"). */
async function readNoFollow(path: string, max: number): Promise<Buffer | null | "not a file"> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (hasErrno(error, "ENOENT")) return null;
    if (hasErrno(error, "ELOOP")) return "not a file";
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > max) return "not a file";
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function inspect(path: string, sha256: string): Promise<Found> {
  const bytes = await readNoFollow(path, MAX_PART_BYTES);
  if (bytes === null) return "absent";
  if (bytes === "not a file") return "not a regular file";
  return contentHash(bytes) === sha256 ? "matching" : "different";
}

/** The manifest, if it is one witness wrote with this token; else why not. */
async function readManifest(path: string, token: string): Promise<SetManifest | string> {
  const bytes = await readNoFollow(path, MAX_MANIFEST_BYTES);
  if (bytes === null) return "gone";
  if (bytes === "not a file") return "not a regular file of at most 64 KiB";
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    return `not JSON: ${firstLine(error)}`;
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) return `not a manifest witness writes: ${parsed.error.issues[0]?.message}`;
  const names = new Set<string>();
  for (const entry of parsed.data.files) {
    if (entry.temp !== setTempName(entry.name, token))
      return `temp ${JSON.stringify(entry.temp)} is not the name this set gives ${entry.name}`;
    if (names.has(entry.name)) return `${entry.name} is named twice`;
    names.add(entry.name);
  }
  return parsed.data;
}

async function sameInode(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([lstat(a), lstat(b)]);
    return x.isFile() && x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

type Outcome = { completed: string[] } | { discarded: string[] } | { kept: string };

async function recoverSet(dir: string, manifest: SetManifest): Promise<Outcome> {
  const files = await Promise.all(
    manifest.files.map(async (e) => ({
      final: join(dir, e.name),
      temp: join(dir, e.temp),
      finalFound: await inspect(join(dir, e.name), e.sha256),
      tempFound: await inspect(join(dir, e.temp), e.sha256),
    })),
  );
  if (files.some((f) => f.tempFound === "not a regular file"))
    return { kept: "a temporary name is not a regular file" };
  const taken = files.find((f) => f.finalFound !== "absent" && f.finalFound !== "matching");
  const whole = files.every((f) => f.finalFound === "matching" || f.tempFound === "matching");
  if (whole && taken === undefined) {
    for (const f of files) {
      if (f.finalFound !== "absent") continue;
      try {
        await link(f.temp, f.final);
      } catch (error) {
        if (hasErrno(error, "EEXIST")) return { kept: `${f.final} appeared meanwhile` };
        throw error;
      }
    }
    // A temporary file goes only once its content is in place under its final name.
    for (const f of files)
      if (f.tempFound === "matching" && (await sameInode(f.temp, f.final))) await rm(f.temp);
    return { completed: files.map((f) => f.final) };
  }
  if (!whole && files.every((f) => f.finalFound !== "matching")) {
    // Cut off while writing its temporary files: none of the set appeared, and nothing in it is whole.
    const removed = files.filter((f) => f.tempFound !== "absent").map((f) => f.temp);
    for (const temp of removed) await rm(temp);
    return { discarded: removed };
  }
  return {
    kept: taken === undefined ? "part of the set is missing" : `${taken.final} is another file`,
  };
}

/** Finishes the sets a crashed writer left in `dir`, or discards the ones it never finished writing; live writers' are left alone. */
export async function recoverFileSets(dir: string): Promise<SetRecovery> {
  const done: SetRecovery = { completed: [], discarded: [], kept: [] };
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return done;
  }
  for (const name of names) {
    const m = MANIFEST_NAME.exec(name);
    if (m === null || ownerAlive({ pid: Number(m[1]), start: null })) continue;
    const path = join(dir, name);
    const manifest = await readManifest(path, `${m[1]}.${m[2]}`);
    if (manifest === "gone") continue;
    const outcome =
      typeof manifest === "string" ? { kept: manifest } : await recoverSet(dir, manifest);
    if ("kept" in outcome) {
      done.kept.push({ manifest: path, why: outcome.kept });
      continue;
    }
    // The manifest goes last: until then a second recovery can still finish the set.
    await rm(path);
    if ("completed" in outcome) done.completed.push(outcome.completed);
    else done.discarded.push(...outcome.discarded);
  }
  return done;
}

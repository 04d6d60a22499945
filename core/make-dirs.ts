import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";

import { hasErrno } from "./fs-errors.js";

/**
 * `mkdir -p` for paths a user names. Node 20's recursive mkdir spins forever where mkdir
 * answers ENOENT under an existing parent (a path under /proc), so this walks up itself.
 */
export async function makeDirs(path: string): Promise<void> {
  const target = resolve(path);
  try {
    await mkdir(target);
  } catch (error) {
    if (hasErrno(error, "EEXIST")) return;
    const parent = dirname(target);
    if (!hasErrno(error, "ENOENT") || parent === target) throw error;
    await makeDirs(parent);
    try {
      await mkdir(target);
    } catch (again) {
      if (!hasErrno(again, "EEXIST")) throw again;
    }
  }
}

// Materializes a per-run home: a symlink mirror of the operator's directory minus excluded entries.
import { mkdir, readdir, symlink } from "node:fs/promises";
import { join } from "node:path";

import { writeFileAtomic } from "../../core/atomic.js";
import { hasErrno } from "../../core/fs-errors.js";
import type { HomeOverlay } from "../plan/launch-types.js";

/**
 * Creates `targetDir` and links every entry of `overlay.source` into it (or into its
 * `mirrorInto` subdirectory) except the excluded names, then writes the `empty` names as empty files.
 */
export async function materializeHomeOverlay(
  overlay: HomeOverlay,
  targetDir: string,
): Promise<void> {
  const mirror = overlay.mirrorInto === undefined ? targetDir : join(targetDir, overlay.mirrorInto);
  await mkdir(mirror, { recursive: true });
  let entries: string[] = [];
  try {
    entries = await readdir(overlay.source);
  } catch (error) {
    // An operator without that home has nothing to mirror; the overlay is then an empty directory.
    if (!hasErrno(error, "ENOENT")) throw error;
  }
  const excluded = new Set([...overlay.exclude, ...(overlay.empty ?? [])]);
  for (const name of entries) {
    if (excluded.has(name)) continue;
    await symlink(join(overlay.source, name), join(mirror, name));
  }
  for (const name of overlay.empty ?? []) await writeFileAtomic(join(mirror, name), "");
}

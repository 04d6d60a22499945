// What a lock and its amendment log hold on disk (`NNNN-slug.lock.json`, `NNNN-slug.amendments.jsonl`),
// and reading a lock: what locking (lock.ts) writes and the lock's history (lock-history.ts) reads.
import { lstat } from "node:fs/promises";

import { z } from "zod";

import { lockPathOf } from "../core/doc-paths.js";
import { hasErrno } from "../core/fs-errors.js";
import { parseDocument, parseWith, readUserFile, unreadableFile } from "../core/read-input.js";
import { CANONICAL_FORMS } from "./canonical-form.js";

/** A protocol's lock (`NNNN-slug.lock.json`): what was registered, and in which commit. */
export const lockSchema = z.strictObject({
  schema: z.literal("witness.lock/1"),
  protocol: z.string(),
  /** The protocol file, relative to the repository root (never outside it). */
  file: z
    .string()
    .regex(
      /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]+$/,
      "expected a path relative to the repository root, without . or .. segments",
    ),
  canonicalHash: z.string().startsWith("sha256:"),
  bytesHash: z.string().startsWith("sha256:"),
  lockedAt: z.string(),
  /** The commit in which the protocol file, as locked, was committed. */
  commit: z.string().regex(/^[0-9a-f]{40}$/, "expected a full commit hash"),
});
export type Lock = z.infer<typeof lockSchema>;

/** One line of the amendment log: a locked protocol changed on purpose. */
export const amendmentSchema = z.strictObject({
  at: z.string(),
  reason: z.string().min(1),
  oldCanonicalHash: z.string(),
  newCanonicalHash: z.string(),
  oldBytesHash: z.string(),
  newBytesHash: z.string(),
  commit: z.string(),
  /** Whether any record of the protocol existed when it was amended, and which. */
  recordsExisted: z.boolean(),
  records: z.array(z.string()),
  /**
   * Set when only the canonical form changed: the old hash is this very content in the earlier
   * form `from`. The gate recomputes both hashes before it lets records of the old one count.
   */
  reexpression: z
    .strictObject({ from: z.enum(CANONICAL_FORMS), to: z.enum(CANONICAL_FORMS) })
    .optional(),
});
export type Amendment = z.infer<typeof amendmentSchema>;

/** A lock is a few hundred bytes, committed: a symlink or anything bigger is not one. */
const SMALL_CHECKOUT_FILE = { maxBytes: 64 * 1024, noSymlink: true };

/** False when nothing is at `file` (a symlink counts as something, and is refused when read). */
export async function present(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (hasErrno(error, "ENOENT")) return false;
    throw unreadableFile(file, error);
  }
}

/** Reads a protocol's lock, or null when it has none. */
export async function readLock(protocolFile: string): Promise<Lock | null> {
  const file = lockPathOf(protocolFile);
  if (!(await present(file))) return null;
  const text = await readUserFile(file, "the lock file", undefined, SMALL_CHECKOUT_FILE);
  return parseWith(lockSchema, parseDocument(text.toString("utf8"), file), file);
}

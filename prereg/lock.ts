import { appendFile, lstat, readdir } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

import { z } from "zod";

import { writeFileAtomic } from "../core/atomic.js";
import { amendmentsPathOf, DOCS, lockPathOf } from "../core/doc-paths.js";
import { InputError, RefusalError, UsageError } from "../core/errors.js";
import { hasErrno } from "../core/fs-errors.js";
import { isCommittedAndClean, lastCommitOf, repoRoot } from "../core/git.js";
import { parseDocument, parseWith, readUserFile, unreadableFile } from "../core/read-input.js";
import { CANONICAL_FORMS, earlierFormOf, formOf } from "./canonical-form.js";
import { type LoadedProtocol, loadProtocol } from "./load.js";
import { committedLocks } from "./lock-history.js";
import { lockTimeIssues } from "./lock-rules.js";

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

/** Record JSON files of a protocol in `dir` (names only), sorted. */
export async function recordsOf(
  protocol: LoadedProtocol["protocol"],
  dir: string,
): Promise<string[]> {
  const prefix = `${protocol.id}-${protocol.slug}-`;
  try {
    return (await readdir(dir)).filter((n) => n.startsWith(prefix) && n.endsWith(".json")).sort();
  } catch {
    return [];
  }
}

/** How `lockProtocol` ended; `re-expressed` is an amendment of the canonical form alone. */
export type LockAction = "locked" | "unchanged" | "reformatted" | "amended" | "re-expressed";

/** Options of `lockProtocol`. */
export interface LockOptions {
  cwd?: string;
  /** The reason for changing a locked protocol; required to change one. */
  amend?: string;
  now?: () => Date;
  /** Where records live, to say in an amendment whether any existed (default docs/measurements). */
  recordsDir?: string;
  /**
   * Records of the protocol written anywhere else (another `--out`, another clone), given every
   * canonical hash the protocol was ever locked at: the run ledger's answer (measurements/).
   */
  recordsElsewhere?: (protocol: string, hashes: readonly string[]) => Promise<string[]>;
}

/** Locks a committed, unchanged protocol; changing a locked one needs `amend`. */
export async function lockProtocol(
  file: string,
  options: LockOptions = {},
): Promise<{ lock: Lock; action: LockAction; file: string }> {
  const cwd = options.cwd ?? process.cwd();
  const abs = isAbsolute(file) ? file : resolve(cwd, file);
  const loaded = await loadProtocol(abs);
  const root = await repoRoot(dirname(abs));
  const rel = relative(root, abs);
  if (!(await isCommittedAndClean(rel, root))) {
    throw new RefusalError(
      "prereg-uncommitted",
      `${file}: commit the protocol first; a lock pins a committed, unchanged file`,
    );
  }
  const commit = await lastCommitOf(rel, root);
  if (commit === null) throw new RefusalError("prereg-uncommitted", `${file}: no commit holds it`);
  const now = (options.now ?? (() => new Date()))().toISOString();
  const lock: Lock = {
    schema: "witness.lock/1",
    protocol: loaded.protocol.id,
    file: rel,
    canonicalHash: loaded.canonicalHash,
    bytesHash: loaded.bytesHash,
    lockedAt: now,
    commit,
  };
  // A lock file deleted from the working tree still has its committed history: relocking from
  // scratch must not skip the amendment a change needs.
  const history = await committedLocks(abs, root);
  const previous = (await readLock(abs)) ?? history.at(-1)?.lock ?? null;
  let action: LockAction = "locked";
  // What is newly registered must be a real pre-registration; an unchanged one was judged already.
  const registering =
    previous === null || previous.canonicalHash !== loaded.canonicalHash
      ? await lockTimeIssues(loaded.protocol, root)
      : [];
  if (registering.length > 0) throw new InputError(file, registering);
  if (previous === null) {
    if (options.amend !== undefined)
      throw new UsageError(`${file}: not locked yet, nothing to amend`);
  } else if (previous.canonicalHash === loaded.canonicalHash) {
    if (previous.bytesHash === loaded.bytesHash)
      return { lock: previous, action: "unchanged", file };
    // Only the formatting changed: the registered content is the same, so no amendment is needed.
    action = "reformatted";
  } else {
    if (options.amend === undefined || options.amend.trim() === "") {
      throw new RefusalError(
        "prereg-changed",
        `${file}: changed since its lock (locked ${previous.canonicalHash}, now ${loaded.canonicalHash}); relock with --amend "<reason>"`,
      );
    }
    const hashes = [
      ...new Set([previous.canonicalHash, ...history.map((v) => v.lock.canonicalHash)]),
    ];
    const records = [
      ...new Set([
        ...(await recordsOf(loaded.protocol, options.recordsDir ?? join(root, DOCS.measurements))),
        ...((await options.recordsElsewhere?.(loaded.protocol.id, hashes)) ?? []),
      ]),
    ];
    // The same content hashed in an earlier form: what spawns do is unchanged, so say so.
    const from = earlierFormOf(loaded.protocol, previous.canonicalHash);
    const amendment: Amendment = {
      at: now,
      reason: options.amend,
      oldCanonicalHash: previous.canonicalHash,
      newCanonicalHash: loaded.canonicalHash,
      oldBytesHash: previous.bytesHash,
      newBytesHash: loaded.bytesHash,
      commit,
      recordsExisted: records.length > 0,
      records,
      ...(from === null ? {} : { reexpression: { from, to: formOf(loaded.protocol) } }),
    };
    await appendFile(amendmentsPathOf(abs), `${JSON.stringify(amendment)}\n`);
    action = from === null ? "amended" : "re-expressed";
  }
  await writeFileAtomic(lockPathOf(abs), `${JSON.stringify(lock, null, 2)}\n`);
  return { lock, action, file };
}

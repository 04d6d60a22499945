import { appendFile, readdir } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";
import { amendmentsPathOf, DOCS, lockPathOf } from "../core/doc-paths.js";
import { InputError, RefusalError, UsageError } from "../core/errors.js";
import { isCommittedAndClean, lastCommitOf, repoRoot } from "../core/git.js";
import { earlierFormOf, formOf } from "./canonical-form.js";
import { type LoadedProtocol, loadProtocol } from "./load.js";
import { type Amendment, type Lock, readLock } from "./lock-file.js";
import { committedLocks } from "./lock-history.js";
import { lockTimeIssues } from "./lock-rules.js";

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

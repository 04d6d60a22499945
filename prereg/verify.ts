import { readdir } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

import { sha256 } from "../core/canonical.js";
import { DOCS, protocolFileName } from "../core/doc-paths.js";
import { InputError, RefusalError } from "../core/errors.js";
import { hasCommit, missingCommit, repoRoot, showAt } from "../core/git.js";
import { earlierFormOf } from "./canonical-form.js";
import { type LoadedProtocol, loadProtocol } from "./load.js";
import { type Lock, readLock } from "./lock-file.js";
import {
  committedLocks,
  countingHashes,
  readAmendments,
  undeclaredChanges,
} from "./lock-history.js";

/** A protocol's standing against its lock. */
export type LockState =
  | "locked"
  | "reformatted"
  | "changed"
  | "unlocked"
  | "bad-commit"
  /** The lock's registered content changed in its history without an amendment entry. */
  | "unamended";

/** One protocol's verification. */
export interface LockCheck {
  loaded: LoadedProtocol;
  lock: Lock | null;
  state: LockState;
  /** One line a person can act on. */
  message: string;
  /**
   * The record hashes that stand for the current lock: its own, then those of earlier canonical
   * forms of the same content (verified re-expressions). Empty without a lock.
   */
  counting: string[];
}

/** Compares a protocol with its lock, without git. */
export function compareWithLock(loaded: LoadedProtocol, lock: Lock | null): LockCheck {
  const base = { loaded, lock, counting: lock === null ? [] : [lock.canonicalHash] };
  if (lock === null)
    return { ...base, state: "unlocked", message: `not locked (hash ${loaded.canonicalHash})` };
  if (lock.canonicalHash !== loaded.canonicalHash || lock.protocol !== loaded.protocol.id) {
    const form =
      lock.protocol === loaded.protocol.id
        ? earlierFormOf(loaded.protocol, lock.canonicalHash)
        : null;
    return {
      ...base,
      state: "changed",
      message:
        form === null
          ? `changed since its lock: locked ${lock.canonicalHash}, now ${loaded.canonicalHash}`
          : `locked in the earlier canonical form ${form} (${lock.canonicalHash}), the same content is ${loaded.canonicalHash} now; relock with --amend "<reason>" (a re-expression: its records keep counting)`,
    };
  }
  if (lock.bytesHash !== loaded.bytesHash) {
    return {
      ...base,
      state: "reformatted",
      message: `formatting changed since its lock, content the same (${lock.canonicalHash})`,
    };
  }
  return {
    ...base,
    state: "locked",
    message: `locked at ${lock.commit.slice(0, 12)} (${lock.canonicalHash})`,
  };
}

/** Loads a protocol and checks its lock, including that the lock's commit holds the locked file. */
export async function checkProtocol(file: string): Promise<LockCheck> {
  const loaded = await loadProtocol(file);
  const check = compareWithLock(loaded, await readLock(file));
  if (check.lock === null || check.state === "changed") return check;
  const root = await repoRoot(dirname(file));
  const committed = await showAt(check.lock.commit, check.lock.file, root);
  if (committed === null && !(await hasCommit(check.lock.commit, root))) {
    return { ...check, state: "bad-commit", message: `lock ${missingCommit(check.lock.commit)}` };
  }
  if (committed === null || sha256(committed) !== check.lock.bytesHash) {
    return {
      ...check,
      state: "bad-commit",
      message: `lock commit ${check.lock.commit.slice(0, 12)} does not hold ${check.lock.file} as locked`,
    };
  }
  const amendments = await readAmendments(file);
  const undeclared = await lockChangesWithoutAmendment(file, check.lock, root, amendments);
  if (undeclared.length > 0)
    return { ...check, state: "unamended", message: undeclared.join("; ") };
  return {
    ...check,
    counting: countingHashes(loaded.protocol, check.lock.canonicalHash, amendments),
  };
}

// The committed history of the lock file, then the working tree's version when it differs.
async function lockChangesWithoutAmendment(
  file: string,
  current: Lock,
  root: string,
  amendments: Awaited<ReturnType<typeof readAmendments>>,
): Promise<string[]> {
  const versions = await committedLocks(file, root);
  const last = versions.at(-1);
  if (last === undefined || JSON.stringify(last.lock) !== JSON.stringify(current)) {
    versions.push({ lock: current, commit: null, committedAt: null });
  }
  return undeclaredChanges(versions, amendments);
}

/** True for states a run may use as registered evidence. */
export function isUsable(state: LockState): boolean {
  return state === "locked" || state === "reformatted";
}

/** Throws the refusal `witness run` gives for an unlocked or changed protocol. */
export function refuseUnlessLocked(check: LockCheck): void {
  if (isUsable(check.state)) return;
  const locked = check.lock?.canonicalHash ?? "none";
  throw new RefusalError(
    `prereg-${check.state}`,
    `${check.loaded.file}: ${check.message} (lock hash ${locked}, file hash ${check.loaded.canonicalHash}); a run needs a registered protocol`,
  );
}

/** Every protocol file in the repository's docs/prereg, sorted. */
export async function listProtocols(
  options: { cwd?: string; dir?: string } = {},
): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd();
  const dir = options.dir ?? join(await repoRoot(cwd), DOCS.prereg);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files = names.filter((n) => protocolFileName(n) !== null).sort();
  // Two files claiming one id would let a record of one stand for the other.
  const seen = new Map<string, string>();
  for (const name of files) {
    const id = protocolFileName(name)?.id ?? "";
    const first = seen.get(id);
    if (first !== undefined) {
      throw new InputError(join(dir, name), [
        { path: "id", message: `expected an id no other protocol has; ${first} has "${id}" too` },
      ]);
    }
    seen.set(id, name);
  }
  return files.map((n) => join(dir, n));
}

/** Checks the given protocols, or every registered one. */
export async function verifyProtocols(
  options: { cwd?: string; files?: readonly string[] } = {},
): Promise<LockCheck[]> {
  const cwd = options.cwd ?? process.cwd();
  const files =
    options.files !== undefined && options.files.length > 0
      ? options.files.map((f) => (isAbsolute(f) ? f : resolve(cwd, f)))
      : await listProtocols({ cwd });
  // All at once (each asks git a few questions); the first bad file in the given order is the
  // one reported, as it was when they ran one after another.
  const settled = await Promise.allSettled(files.map((file) => checkProtocol(file)));
  const bad = settled.find((s) => s.status === "rejected");
  if (bad !== undefined) throw bad.reason;
  return settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
}

/**
 * Each record hash of an earlier canonical form mapped to the current lock hash it stands for,
 * over the protocols of the repository at `cwd` (empty outside a repository).
 */
export async function reexpressedHashes(
  options: { cwd?: string } = {},
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let checks: LockCheck[];
  try {
    checks = await verifyProtocols(options);
  } catch {
    return out;
  }
  for (const check of checks) {
    const [current, ...earlier] = check.counting;
    if (current === undefined || !isUsable(check.state)) continue;
    for (const hash of earlier) out.set(hash, current);
  }
  return out;
}

// A lock's history in git: every committed version of the lock file, and whether each change of
// the registered content was declared in the amendment log. A lock rewritten by hand after an
// expectation changed has a history with an undeclared change, and does not verify.
import { realpath } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";

import { amendmentsPathOf, lockPathOf } from "../core/doc-paths.js";
import { InputError } from "../core/errors.js";
import { commitsOf, showAt } from "../core/git.js";
import { parseDocument, readUserFile, zodIssues } from "../core/read-input.js";
import { formExpresses, protocolHash } from "./canonical-form.js";
import { type Amendment, amendmentSchema, type Lock, lockSchema, present } from "./lock-file.js";
import type { Protocol } from "./protocol.js";

/** One version of a lock file: committed (with its commit and time) or the working tree's. */
export interface LockVersion {
  lock: Lock;
  /** The commit that wrote this version; null for an uncommitted working-tree version. */
  commit: string | null;
  committedAt: string | null;
}

/** The repository-relative path of a file beside `protocolFile`. */
export async function relativeInRepo(file: string, root: string): Promise<string> {
  return join(relative(root, await realpath(dirname(file))), basename(file));
}

/** Committed versions of the protocol's lock file, oldest first (versions git cannot parse are skipped). */
export async function committedLocks(protocolFile: string, root: string): Promise<LockVersion[]> {
  const rel = await relativeInRepo(lockPathOf(protocolFile), root);
  const versions: LockVersion[] = [];
  for (const { commit, committedAt } of (await commitsOf(rel, root)).reverse()) {
    const text = await showAt(commit, rel, root);
    if (text === null) continue; // the commit deleted the file
    let parsed;
    try {
      parsed = lockSchema.safeParse(parseDocument(text, rel));
    } catch {
      continue;
    }
    if (parsed.success) versions.push({ lock: parsed.data, commit, committedAt });
  }
  return versions;
}

/** The amendment log beside a protocol; an empty list when there is none. */
export async function readAmendments(protocolFile: string): Promise<Amendment[]> {
  const file = amendmentsPathOf(protocolFile);
  if (!(await present(file))) return [];
  const bytes = await readUserFile(file, "the amendment log", undefined, { noSymlink: true });
  return bytes
    .toString("utf8")
    .split("\n")
    .flatMap((line, i) => {
      if (line.trim() === "") return [];
      let value: unknown;
      try {
        value = JSON.parse(line) as unknown;
      } catch {
        throw new InputError(file, [
          { path: `line ${i + 1}`, message: "expected one JSON object" },
        ]);
      }
      const parsed = amendmentSchema.safeParse(value);
      if (!parsed.success) {
        throw new InputError(
          file,
          zodIssues(parsed.error).map((issue) => ({
            path: `line ${i + 1}${issue.path === "" ? "" : `.${issue.path}`}`,
            message: issue.message,
          })),
        );
      }
      return [parsed.data];
    });
}

/**
 * Each change of the registered content (canonical hash) between consecutive versions that no
 * amendment declares, as a sentence. A formatting-only relock changes no canonical hash.
 */
export function undeclaredChanges(
  versions: readonly LockVersion[],
  amendments: readonly Amendment[],
): string[] {
  const problems: string[] = [];
  for (let i = 1; i < versions.length; i++) {
    const before = versions[i - 1];
    const after = versions[i];
    if (before === undefined || after === undefined) continue;
    const from = before.lock.canonicalHash;
    const to = after.lock.canonicalHash;
    if (from === to) continue;
    const declared = amendments.some(
      (a) => a.oldCanonicalHash === from && a.newCanonicalHash === to,
    );
    if (!declared) {
      const where =
        after.commit === null ? "in the working tree" : `in ${after.commit.slice(0, 12)}`;
      problems.push(
        `the lock changed from ${from} to ${to} ${where} without an amendment (witness prereg lock --amend "<reason>")`,
      );
    }
  }
  return problems;
}

/**
 * The hashes whose records count for a lock: its own, and each earlier hash an amendment says was
 * the same content in an earlier canonical form, when recomputing both hashes from `protocol`
 * agrees. A real change of the content (or a re-expression claimed for one) adds nothing.
 */
export function countingHashes(
  protocol: Protocol,
  lockHash: string,
  amendments: readonly Amendment[],
): string[] {
  const out = [lockHash];
  for (let i = 0; i < out.length; i++) {
    for (const a of amendments) {
      if (a.newCanonicalHash !== out[i] || a.reexpression === undefined) continue;
      if (out.includes(a.oldCanonicalHash)) continue;
      // Never the amendment's word: both of its hashes recomputed from the protocol as it stands.
      const { from, to } = a.reexpression;
      if (
        formExpresses(protocol, from) &&
        formExpresses(protocol, to) &&
        protocolHash(protocol, from) === a.oldCanonicalHash &&
        protocolHash(protocol, to) === a.newCanonicalHash
      )
        out.push(a.oldCanonicalHash);
    }
  }
  return out;
}

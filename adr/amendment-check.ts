// An amendment that says no records existed, checked against git and the run ledger: a lock
// changed with `recordsExisted: false` while records of the old lock were committed (or written,
// by the ledger) would hide them, so the protocol is refused.
import { relative } from "node:path";

import { amendmentsPathOf } from "../core/doc-paths.js";
import { oldestCommitWithText } from "../core/git.js";
import { readUserFile } from "../core/read-input.js";
import type { LedgerEntry } from "../measurements/run-ledger.js";
import { amendmentSchema } from "../prereg/lock-file.js";
import type { LockCheck } from "../prereg/verify.js";
import type { GateContext } from "./gate.js";

async function amendmentLines(protocolFile: string): Promise<string[]> {
  try {
    const bytes = await readUserFile(
      amendmentsPathOf(protocolFile),
      "the amendment log",
      undefined,
      {
        noSymlink: true,
      },
    );
    return bytes.toString("utf8").split("\n");
  } catch {
    // The protocol's check read (or refused) the log already; nothing more to say here.
    return [];
  }
}

/**
 * Each amendment of the protocol that says no records existed although git's history held a
 * record of its old lock before the commit that added the amendment, or the ledger names one
 * written before it, as a sentence naming the log, its line and the record.
 */
export async function falseAmendments(
  check: LockCheck,
  ctx: GateContext,
  ledger: readonly LedgerEntry[],
): Promise<string[]> {
  const problems: string[] = [];
  const log = relative(ctx.root, amendmentsPathOf(check.loaded.file));
  const lines = await amendmentLines(check.loaded.file);
  const { id } = check.loaded.protocol;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch {
      continue;
    }
    const parsed = amendmentSchema.safeParse(value);
    if (!parsed.success || parsed.data.recordsExisted) continue;
    const a = parsed.data;
    const where = `${log}: line ${i + 1}: recordsExisted: expected true`;
    const held = ctx.records.filter(
      (r) => r.record.protocol.id === id && r.record.protocol.canonicalHash === a.oldCanonicalHash,
    );
    const amended = held.length > 0 ? await oldestCommitWithText(log, line, ctx.root) : null;
    for (const r of held) {
      const added = await ctx.history.addedBy(r.path);
      if (added === null) continue;
      // Not committed yet: the amendment is newer than every committed record.
      const before =
        amended === null || added === amended || (await ctx.history.follows(amended, added));
      if (before)
        problems.push(
          `${where}; git holds ${r.path} of lock ${a.oldCanonicalHash}, added in ${added.slice(0, 12)} before the amendment`,
        );
    }
    for (const e of ledger) {
      if (e.protocol.id !== id || e.protocol.canonicalHash !== a.oldCanonicalHash) continue;
      if (Date.parse(e.at) < Date.parse(a.at))
        problems.push(`${where}; the run ledger names ${e.record}, written ${e.at} before it`);
    }
  }
  return problems;
}

// A lock as witness wrote it before the effective canonical form: the parsed protocol's hash,
// committed. Migration tests start from one to show what a re-expression keeps counting.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { lockPathOf } from "../../core/doc-paths.js";
import { protocolHash } from "../../prereg/canonical-form.js";
import { loadProtocol } from "../../prereg/load.js";
import type { Lock } from "../../prereg/lock-file.js";
import type { LockCheck } from "../../prereg/verify.js";
import { commit, git } from "./witness-repo.js";

/**
 * Writes and commits a lock of the committed protocol `rel` in the `parsed` form, locked `at`;
 * returns the check a run under that lock would have had.
 */
export async function lockInParsedForm(dir: string, rel: string, at: Date): Promise<LockCheck> {
  const file = join(dir, rel);
  const loaded = await loadProtocol(file);
  const lock: Lock = {
    schema: "witness.lock/1",
    protocol: loaded.protocol.id,
    file: rel,
    canonicalHash: protocolHash(loaded.protocol, "parsed"),
    bytesHash: loaded.bytesHash,
    lockedAt: at.toISOString(),
    commit: (await git(dir, "log", "-1", "--format=%H", "--", rel)).trim(),
  };
  await writeFile(lockPathOf(file), `${JSON.stringify(lock, null, 2)}\n`);
  await commit(dir, `lock ${rel} (parsed form)`);
  const check: LockCheck = {
    loaded: { ...loaded, canonicalHash: lock.canonicalHash },
    lock,
    state: "locked",
    message: "locked",
    counting: [lock.canonicalHash],
  };
  return check;
}

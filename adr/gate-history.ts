// What the gate asks git, asked once per gate run: the commits that added the records (one
// `git log`), each protocol's check and lock history (once per protocol), each lock commit's
// descendants (once per lock). A record costs no process of its own, so the gate's time grows
// with the records' bytes, not by a git call per record.
import { DOCS } from "../core/doc-paths.js";
import { type Addition, additionsUnder, descendantsOf } from "../core/git.js";
import { committedLocks, type LockVersion } from "../prereg/lock-history.js";
import { checkProtocol, type LockCheck } from "../prereg/verify.js";

/** The gate's questions to git and to the protocols, each answered once and remembered. */
export interface GateHistory {
  /** The protocol's check against its lock. */
  check(protocolFile: string): Promise<LockCheck>;
  /** The committed versions of the protocol's lock file, oldest first. */
  locks(protocolFile: string): Promise<LockVersion[]>;
  /** The oldest commit that added the repository-relative record path, or null. */
  addedBy(path: string): Promise<string | null>;
  /** Every record path's oldest addition: its commit and the blob it added. */
  additions(): Promise<Map<string, Addition>>;
  /** True when `commit` descends from `ancestor` (not equal to it) in HEAD's history. */
  follows(commit: string, ancestor: string): Promise<boolean>;
  /** Remembers one answer per key: a judgement of a record against a lock, for instance. */
  once<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

function memo<T>(compute: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let answer = seen.get(key);
    if (answer === undefined) {
      answer = compute(key);
      seen.set(key, answer);
    }
    return answer;
  };
}

/** A fresh history for the repository at `root`. */
export function gateHistory(root: string): GateHistory {
  const added = memo(() => additionsUnder(DOCS.measurements, root));
  const descendants = memo((commit) => descendantsOf(commit, root));
  const answers = new Map<string, Promise<unknown>>();
  return {
    check: memo((file) => checkProtocol(file)),
    locks: memo((file) => committedLocks(file, root)),
    addedBy: async (path) => (await added("")).get(path)?.commit ?? null,
    additions: () => added(""),
    follows: async (commit, ancestor) => (await descendants(ancestor)).has(commit),
    once<T>(key: string, compute: () => Promise<T>): Promise<T> {
      let answer = answers.get(key) as Promise<T> | undefined;
      if (answer === undefined) {
        answer = compute();
        answers.set(key, answer);
      }
      return answer;
    },
  };
}

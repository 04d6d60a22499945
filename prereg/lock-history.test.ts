// A lock is history, not a file: every change of what it registers must be declared.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { sha256 } from "../core/canonical.js";
import { RefusalError } from "../core/errors.js";
import { protocolText } from "../test/support/observations.js";
import {
  commit,
  put,
  putAdr,
  tempGitRepo,
  witnessInProcess,
} from "../test/support/witness-repo.js";
import { loadProtocol } from "./load.js";
import { lockProtocol } from "./lock.js";
import type { Lock } from "./lock-file.js";
import { verifyProtocols } from "./verify.js";

const REL = "docs/prereg/0001-demo.yaml";
const LOCK = "docs/prereg/0001-demo.lock.json";
let repo: { dir: string; cleanup: () => Promise<void> };
let file = "";

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  file = await put(repo.dir, REL, protocolText());
  await commit(repo.dir, "register");
  await lockProtocol(REL, { cwd: repo.dir });
  await commit(repo.dir, "lock");
  await writeFile(file, protocolText({ expectB: "marker-present" }));
});
afterEach(() => repo.cleanup());

/** What a person who recomputes the hashes by hand writes into the lock. */
async function rewriteLockByHand(): Promise<void> {
  const changed = await commit(repo.dir, "change an expectation");
  const loaded = await loadProtocol(file);
  const lockFile = join(repo.dir, LOCK);
  const lock = JSON.parse(await readFile(lockFile, "utf8")) as Lock;
  const forged: Lock = {
    ...lock,
    canonicalHash: loaded.canonicalHash,
    bytesHash: sha256(await readFile(file)),
    commit: changed,
  };
  await writeFile(lockFile, `${JSON.stringify(forged, null, 2)}\n`);
}

const state = async () => (await verifyProtocols({ cwd: repo.dir }))[0];

describe("a lock's history", () => {
  it("does not verify a lock recomputed by hand after an expectation changed, committed or not", async () => {
    await rewriteLockByHand();
    expect((await state())?.state).toBe("unamended");
    await commit(repo.dir, "relock by hand");
    const check = await state();
    expect(check?.state).toBe("unamended");
    expect(check?.message).toMatch(
      /the lock changed from sha256:\w+ to sha256:\w+ in \w{12} without an amendment/,
    );
  });

  it("makes prereg verify exit 1 and the gate refuse the protocol on such a lock", async () => {
    await rewriteLockByHand();
    await commit(repo.dir, "relock by hand");
    await put(repo.dir, "docs/adr/0001-demo.md", "# 0001\n\nStatus: Accepted\nRequires: 0001\n");
    const verify = await witnessInProcess(repo.dir, "prereg", "verify");
    expect(verify.stdout).toContain("unamended");
    expect(verify.exitCode).toBe(1);
    const gate = await witnessInProcess(repo.dir, "adr", "check");
    expect(gate.stdout).toContain("without an amendment");
    expect(gate.exitCode).toBe(1);
  });

  it("verifies the same change relocked with --amend", async () => {
    await commit(repo.dir, "change an expectation");
    await lockProtocol(REL, { cwd: repo.dir, amend: "B is loaded after all" });
    await commit(repo.dir, "relock");
    expect((await state())?.state).toBe("locked");
  });

  it("still asks for an amendment when the lock file was deleted and the protocol locked afresh", async () => {
    await commit(repo.dir, "change an expectation");
    await rm(join(repo.dir, LOCK));
    await expect(lockProtocol(REL, { cwd: repo.dir })).rejects.toBeInstanceOf(RefusalError);
  });

  it("accepts a formatting-only relock without an amendment", async () => {
    await writeFile(file, `# a comment\n${protocolText()}`);
    await commit(repo.dir, "reformat");
    await lockProtocol(REL, { cwd: repo.dir });
    await commit(repo.dir, "relock");
    expect((await state())?.state).toBe("locked");
  });
});

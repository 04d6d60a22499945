import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { RefusalError, UsageError } from "../core/errors.js";
import { lockInParsedForm } from "../test/support/earlier-lock.js";
import { protocolText } from "../test/support/observations.js";
import { commit, git, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { lockProtocol } from "./lock.js";
import { amendmentSchema, readLock } from "./lock-file.js";
import { verifyProtocols } from "./verify.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };
let file = "";

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  file = await put(repo.dir, REL, protocolText());
});
afterEach(() => repo.cleanup());

describe("lockProtocol", () => {
  it("refuses to lock a protocol that is not committed", async () => {
    await expect(lockProtocol(REL, { cwd: repo.dir })).rejects.toBeInstanceOf(RefusalError);
  });

  it("refuses to lock a committed protocol with uncommitted changes", async () => {
    await commit(repo.dir, "register");
    await writeFile(file, protocolText({ expectB: "marker-present" }));
    await expect(lockProtocol(REL, { cwd: repo.dir })).rejects.toThrow(/commit the protocol first/);
  });

  it("pins both hashes and the commit that holds the protocol", async () => {
    const sha = await commit(repo.dir, "register");
    await commit(repo.dir, "later unrelated commit", ...[await put(repo.dir, "other.txt", "x")]);
    const { lock, action } = await lockProtocol(REL, {
      cwd: repo.dir,
      now: () => new Date("2026-01-02T03:04:05Z"),
    });
    expect(action).toBe("locked");
    expect(lock.commit).toBe(sha);
    expect(lock.file).toBe(REL);
    expect(lock.lockedAt).toBe("2026-01-02T03:04:05.000Z");
    expect(await readLock(file)).toEqual(lock);
    expect((await lockProtocol(REL, { cwd: repo.dir })).action).toBe("unchanged");
  });

  it("accepts a formatting-only change without an amendment", async () => {
    await commit(repo.dir, "register");
    const first = await lockProtocol(REL, { cwd: repo.dir });
    await writeFile(file, `# a comment changes the bytes, not the protocol\n${protocolText()}`);
    await commit(repo.dir, "reformat");
    const second = await lockProtocol(REL, { cwd: repo.dir });
    expect(second.action).toBe("reformatted");
    expect(second.lock.canonicalHash).toBe(first.lock.canonicalHash);
    expect(second.lock.bytesHash).not.toBe(first.lock.bytesHash);
  });

  it("refuses a changed expectation without --amend, naming both hashes", async () => {
    await commit(repo.dir, "register");
    const { lock } = await lockProtocol(REL, { cwd: repo.dir });
    await writeFile(file, protocolText({ expectB: "marker-present" }));
    await commit(repo.dir, "change an expectation");
    const error = await lockProtocol(REL, { cwd: repo.dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusalError);
    expect((error as Error).message).toContain(lock.canonicalHash);
    expect((error as Error).message).toMatch(/now sha256:[0-9a-f]{64}/);
  });

  it("appends an amendment saying whether a record existed", async () => {
    await commit(repo.dir, "register");
    const { lock } = await lockProtocol(REL, { cwd: repo.dir });
    await put(repo.dir, "docs/measurements/0001-demo-claude-code-2.1.332.json", "{}");
    await writeFile(file, protocolText({ expectB: "marker-present" }));
    await commit(repo.dir, "change an expectation");
    const result = await lockProtocol(REL, { cwd: repo.dir, amend: "B was mislabelled" });
    expect(result.action).toBe("amended");
    const log = (await readFile(join(repo.dir, "docs/prereg/0001-demo.amendments.jsonl"), "utf8"))
      .trim()
      .split("\n");
    expect(log).toHaveLength(1);
    const amendment = amendmentSchema.parse(JSON.parse(log[0] ?? ""));
    expect(amendment).toMatchObject({
      reason: "B was mislabelled",
      oldCanonicalHash: lock.canonicalHash,
      newCanonicalHash: result.lock.canonicalHash,
      recordsExisted: true,
      records: ["0001-demo-claude-code-2.1.332.json"],
    });
  });

  it("relocks a lock of the parsed form as a re-expression, with a reason, saying records existed", async () => {
    await commit(repo.dir, "register");
    const old = await lockInParsedForm(repo.dir, REL, new Date("2026-01-01T00:00:00Z"));
    const [before] = await verifyProtocols({ cwd: repo.dir });
    expect(before?.state).toBe("changed");
    expect(before?.message).toContain("earlier canonical form parsed");
    await expect(lockProtocol(REL, { cwd: repo.dir })).rejects.toBeInstanceOf(RefusalError);
    await put(repo.dir, "docs/measurements/0001-demo-claude-code-2.1.332.json", "{}");
    const result = await lockProtocol(REL, { cwd: repo.dir, amend: "every default written out" });
    expect(result.action).toBe("re-expressed");
    expect(result.lock.commit).toBe(old.lock?.commit);
    const text = await readFile(join(repo.dir, "docs/prereg/0001-demo.amendments.jsonl"), "utf8");
    expect(amendmentSchema.parse(JSON.parse(text))).toMatchObject({
      oldCanonicalHash: old.lock?.canonicalHash,
      newCanonicalHash: result.lock.canonicalHash,
      recordsExisted: true,
      reexpression: { from: "parsed", to: "effective/1" },
    });
    await commit(repo.dir, "relock");
    const [after] = await verifyProtocols({ cwd: repo.dir });
    expect(after?.state).toBe("locked");
    expect(after?.counting).toEqual([result.lock.canonicalHash, old.lock?.canonicalHash]);
  });

  it("records a change made together with the new form as an amendment, not a re-expression", async () => {
    await commit(repo.dir, "register");
    await lockInParsedForm(repo.dir, REL, new Date("2026-01-01T00:00:00Z"));
    await writeFile(file, protocolText().replace('["-p", "hi"]', '["-p", "hello"]'));
    await commit(repo.dir, "change the prompt");
    const result = await lockProtocol(REL, { cwd: repo.dir, amend: "new prompt" });
    expect(result.action).toBe("amended");
    const text = await readFile(join(repo.dir, "docs/prereg/0001-demo.amendments.jsonl"), "utf8");
    expect(amendmentSchema.parse(JSON.parse(text)).reexpression).toBeUndefined();
    await commit(repo.dir, "relock");
    const [after] = await verifyProtocols({ cwd: repo.dir });
    expect(after?.counting).toEqual([result.lock.canonicalHash]);
  });

  it("will not amend a protocol that was never locked", async () => {
    await commit(repo.dir, "register");
    await expect(lockProtocol(REL, { cwd: repo.dir, amend: "why" })).rejects.toBeInstanceOf(
      UsageError,
    );
  });
});

describe("verifyProtocols", () => {
  it("reports unlocked, locked and changed protocols", async () => {
    await commit(repo.dir, "register");
    expect((await verifyProtocols({ cwd: repo.dir }))[0]?.state).toBe("unlocked");
    await lockProtocol(REL, { cwd: repo.dir });
    expect((await verifyProtocols({ cwd: repo.dir }))[0]?.state).toBe("locked");
    await writeFile(file, protocolText({ expectB: "marker-present" }));
    const [check] = await verifyProtocols({ cwd: repo.dir });
    expect(check?.state).toBe("changed");
    expect(check?.message).toContain(check?.lock?.canonicalHash ?? "none");
  });

  it("returns the checks in the order given and reports the first bad file of that order", async () => {
    await commit(repo.dir, "register");
    const names = ["0002-b", "0003-c", "0004-d", "0005-e"];
    for (const n of names) {
      const [id = "", slug = ""] = n.split("-");
      await put(repo.dir, `docs/prereg/${n}.yaml`, protocolText({ id, slug }));
    }
    await put(repo.dir, "docs/prereg/0006-bad.yaml", "id: [");
    await put(repo.dir, "docs/prereg/0007-bad.yaml", "id: [");
    const files = [REL, ...names.map((n) => `docs/prereg/${n}.yaml`)];
    const checks = await verifyProtocols({ cwd: repo.dir, files });
    expect(checks.map((c) => c.loaded.file)).toEqual(files.map((f) => join(repo.dir, f)));
    // Both bad files are checked together; the one reported is the first of the given order.
    const error = await verifyProtocols({
      cwd: repo.dir,
      files: ["docs/prereg/0007-bad.yaml", ...files, "docs/prereg/0006-bad.yaml"],
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("0007-bad.yaml");
  });

  it("rejects a lock whose commit does not hold the protocol as locked", async () => {
    await commit(repo.dir, "register");
    await lockProtocol(REL, { cwd: repo.dir });
    const root = await git(repo.dir, "rev-list", "--max-parents=0", "HEAD");
    const lockFile = join(repo.dir, "docs/prereg/0001-demo.lock.json");
    const text = await readFile(lockFile, "utf8");
    await writeFile(lockFile, text.replace(/"commit": "[0-9a-f]+"/, `"commit": "${root}"`));
    const [check] = await verifyProtocols({ cwd: repo.dir });
    expect(check?.state).toBe("bad-commit");
  });
});

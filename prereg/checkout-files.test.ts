// The files beside a protocol come from a checkout (a pull request can carry any of them): a lock
// or amendment log that is a symlink, a FIFO or a path out of the repository is refused with the
// file named, promptly, never followed.
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { InputError } from "../core/errors.js";
import { runProcess } from "../core/exec.js";
import { protocolText } from "../test/support/observations.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { lockProtocol } from "./lock.js";
import { readLock } from "./lock-file.js";
import { readAmendments } from "./lock-history.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };
let file = "";
beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  file = await put(repo.dir, REL, protocolText());
});
afterEach(() => repo.cleanup());

const lockPath = () => join(repo.dir, "docs/prereg/0001-demo.lock.json");
const amendmentsPath = () => join(repo.dir, "docs/prereg/0001-demo.amendments.jsonl");

async function fifo(): Promise<string> {
  const path = join(repo.dir, "pipe");
  await runProcess({ file: "mkfifo", args: [path], env: {}, cwd: repo.dir, timeoutMs: 10_000 });
  return path;
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe("files beside a protocol, as a checkout carries them", () => {
  it("refuses a lock that is a symlink (to a FIFO, which would block the read), naming it", async () => {
    await symlink(await fifo(), lockPath());
    const error = await refusal(readLock(file));
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(
      `${lockPath()}: expected the lock file as a regular file`,
    );
  }, 5_000);

  it("refuses an amendment log that is a symlink to a FIFO, naming it", async () => {
    await symlink(await fifo(), amendmentsPath());
    const error = await refusal(readAmendments(file));
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(amendmentsPath());
  }, 5_000);

  it("refuses a lock whose protocol path leaves the repository", async () => {
    await commit(repo.dir, "register");
    const { lock } = await lockProtocol(REL, { cwd: repo.dir });
    for (const bad of ["../../etc/passwd", "/etc/passwd", "docs/../../x.yaml"]) {
      await writeFile(lockPath(), JSON.stringify({ ...lock, file: bad }));
      const error = await refusal(readLock(file));
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toContain(`${lockPath()}: file: expected a path relative`);
    }
  });

  it("refuses a lock bigger than any lock witness writes, before reading it", async () => {
    await commit(repo.dir, "register");
    const { lock } = await lockProtocol(REL, { cwd: repo.dir });
    await writeFile(lockPath(), `${JSON.stringify(lock)}${" ".repeat(65 * 1024)}`);
    const error = await refusal(readLock(file));
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain("expected at most 65536 bytes");
  });
});

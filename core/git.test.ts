import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildChildEnv } from "./child-env.js";
import { additionsUnder, descendantsOf, gitOut, readBlobs, runGitBatch } from "./git.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-core-git-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("runGitBatch", () => {
  it("passes every argument as data, whatever bytes it holds", async () => {
    const message = `a "quoted" $(touch ${join(dir, "PWNED")}) \`x\` 'y' -n\nsecond line \\ ${"z".repeat(20)}`;
    await runGitBatch(
      [
        ["init", "-q", "-b", "main"],
        ["commit", "-q", "--allow-empty", "-m", message],
      ],
      { cwd: dir },
    );
    expect(await gitOut(["log", "-1", "--format=%B"], { cwd: dir })).toBe(message);
    expect(existsSync(join(dir, "PWNED"))).toBe(false);
  });

  it("stops at the first failing step and names the steps", async () => {
    await expect(
      runGitBatch(
        [["init", "-q"], ["no-such-subcommand"], ["commit", "--allow-empty", "-m", "x"]],
        {
          cwd: dir,
        },
      ),
    ).rejects.toThrow(/git init\/no-such-subcommand\/commit failed/);
    expect(await gitOut(["rev-list", "--all"], { cwd: dir })).toBe("");
  });
});

describe("hardened git", () => {
  it("reads neither the user's global configuration nor runs a hook it names", async () => {
    const home = join(dir, "home");
    const hooks = join(home, "hooks");
    await mkdir(hooks, { recursive: true });
    const ran = join(dir, "HOOK_RAN");
    await writeFile(join(hooks, "pre-commit"), `#!/bin/sh\ntouch ${ran}\n`);
    await chmod(join(hooks, "pre-commit"), 0o755);
    await writeFile(
      join(home, ".gitconfig"),
      `[core]\n\thooksPath = ${hooks}\n[user]\n\tname = operator\n[init]\n\tdefaultBranch = operator-branch\n`,
    );
    const env = buildChildEnv({ parent: process.env, set: { HOME: home } });
    const repo = join(dir, "repo");
    await mkdir(repo);
    await runGitBatch(
      [
        ["init", "-q"],
        ["commit", "-q", "--allow-empty", "-m", "x"],
      ],
      { cwd: repo, env },
    );
    expect(existsSync(ran)).toBe(false);
    expect(await gitOut(["log", "-1", "--format=%an"], { cwd: repo, env })).toBe("witness");
    expect(await gitOut(["symbolic-ref", "--short", "HEAD"], { cwd: repo, env })).not.toBe(
      "operator-branch",
    );
  });
});

describe("the gate's batched questions", () => {
  async function commitFile(path: string, text: string, message: string): Promise<string> {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
    await runGitBatch(
      [
        ["add", "--", path],
        ["commit", "-q", "-m", message],
      ],
      { cwd: dir },
    );
    return gitOut(["rev-parse", "HEAD"], { cwd: dir });
  }

  it("reads many blobs, multi-byte text included, in one cat-file and skips a missing one", async () => {
    await runGitBatch([["init", "-q", "-b", "main"]], { cwd: dir });
    await commitFile("a.txt", "één\nline two\n", "a");
    await commitFile("b.txt", "plain", "b");
    const ids = await Promise.all(
      ["a.txt", "b.txt"].map((p) => gitOut(["rev-parse", `HEAD:${p}`], { cwd: dir })),
    );
    const missing = "0".repeat(40);
    const texts = await readBlobs([...ids, missing], dir);
    expect([...texts.entries()]).toEqual([
      [ids[0], "één\nline two"],
      [ids[1], "plain"],
    ]);
  });

  it("names the oldest commit adding each path and the blob it added, and the descendants of a commit", async () => {
    await runGitBatch([["init", "-q", "-b", "main"]], { cwd: dir });
    const first = await commitFile("m/one.json", "1", "one");
    const second = await commitFile("m/two.json", "2", "two");
    await runGitBatch(
      [
        ["rm", "-q", "m/one.json"],
        ["commit", "-q", "-m", "drop"],
      ],
      { cwd: dir },
    );
    const readd = await commitFile("m/one.json", "1 again", "one again");
    await commitFile("other/x.json", "x", "outside");
    const added = await additionsUnder("m", dir);
    const blob = (text: string) => gitOut(["hash-object", "--stdin"], { cwd: dir, input: text });
    expect(Object.fromEntries(added)).toEqual({
      "m/one.json": { commit: first, blob: await blob("1") },
      "m/two.json": { commit: second, blob: await blob("2") },
    });
    const after = await descendantsOf(second, dir);
    expect(after.has(readd)).toBe(true);
    expect(after.has(second)).toBe(false);
    expect(after.has(first)).toBe(false);
    expect(await descendantsOf("f".repeat(40), dir)).toEqual(new Set());
  });
});

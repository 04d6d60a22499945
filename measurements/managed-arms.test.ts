// A run whose arm says `managed: require-absent` (or `mask` where the machine cannot) is refused as
// a whole before anything is installed or spawned, naming the protocol, the arm and the file.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { lockProtocol } from "../prereg/lock.js";
import { observation, protocolText } from "../test/support/observations.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";
import { runProtocols } from "./run-protocols.js";

const REL = "docs/prereg/0001-demo.yaml";
let repo: { dir: string; cleanup: () => Promise<void> };

async function register(mode: string): Promise<void> {
  const text = protocolText().replace("    fixture:\n", `    fixture:\n      managed: ${mode}\n`);
  expect(text).toContain(`managed: ${mode}`);
  await put(repo.dir, REL, text);
  await commit(repo.dir, "register 0001");
  await lockProtocol(REL, { cwd: repo.dir });
}

beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
});
afterEach(() => repo.cleanup());

describe("an arm's managed setting in witness run", () => {
  it("require-absent refuses the run while a managed file exists: nothing installed, spawned or written", async () => {
    await register("require-absent");
    const root = join(repo.dir, "machine");
    await mkdir(join(root, "etc/claude-code"), { recursive: true });
    await writeFile(join(root, "etc/claude-code/CLAUDE.md"), "managed memory");
    let installed = 0;
    let spawned = 0;
    const run = runProtocols({
      cwd: repo.dir,
      files: [REL],
      out: join(repo.dir, "records"),
      managedRoot: root,
      install: () => Promise.resolve(void installed++),
      probe: () => {
        spawned++;
        return Promise.resolve(observation());
      },
    });
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(
      `${join(repo.dir, REL)}: arm 0001/only: refused (managed-present): /etc/claude-code/CLAUDE.md: claude-code reads this machine-wide managed file`,
    );
    expect({ installed, spawned }).toEqual({ installed: 0, spawned: 0 });
    expect(existsSync(join(repo.dir, "records", "0001-demo-claude-code-2.1.332.json"))).toBe(false);
  });

  it("require-absent runs when no managed file exists", async () => {
    await register("require-absent");
    const root = join(repo.dir, "machine");
    await mkdir(root);
    let spawned = 0;
    const [run] = await runProtocols({
      cwd: repo.dir,
      files: [REL],
      out: join(repo.dir, "records"),
      managedRoot: root,
      install: () => Promise.resolve(),
      probe: () => {
        spawned++;
        return Promise.resolve(observation());
      },
    });
    expect(spawned).toBe(2);
    expect(run?.record.arms[0]?.spawns).toHaveLength(2);
  });
});

// Bounded and typed input: each bound is checked before any work starts, exits 2 and names itself.
import { existsSync } from "node:fs";
import { mkdtemp, open, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { protocolText } from "../test/support/observations.js";
import {
  commit,
  put,
  tempGitRepo,
  WITNESS_ROOT,
  witnessInProcess,
  witnessInProcessWith,
} from "../test/support/witness-repo.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
});
afterEach(() => repo.cleanup());

function expectRefusal(result: { exitCode: number | null; stderr: string }, text: string) {
  expect(result.stderr).toContain(text);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.exitCode).toBe(2);
}

describe("bounds on what witness reads", () => {
  it("refuses a 200 MB protocol by its size, before reading it", async () => {
    const file = join(repo.dir, "docs/prereg/0001-huge.yaml");
    await put(repo.dir, "docs/prereg/0001-huge.yaml", "");
    // Sparse: 200 MB that take no disk, and would take the heap if read.
    const handle = await open(file, "r+");
    await handle.truncate(200 * 1024 * 1024);
    await handle.close();
    for (const args of [
      ["prereg", "verify"],
      ["run", "docs/prereg/0001-huge.yaml"],
    ]) {
      expectRefusal(
        await witnessInProcess(repo.dir, ...args),
        `${file}: expected at most 1048576 bytes (the bound on the protocol); got 209715200`,
      );
    }
  });

  it.each([
    ["--spawns", "1e9", "--spawns: expected at most 100; got 1000000000"],
    ["--jobs", "100000", "--jobs: expected at most 32; got 100000"],
  ])("refuses run %s %s before any protocol is read", async (flag, value, message) => {
    expectRefusal(await witnessInProcess(repo.dir, "run", "--all", flag, value), message);
  });

  it("refuses a script whose YAML aliases expand past its bound, or name themselves, before any work", async () => {
    const big = `final: &x "${"x".repeat(200_000)}"\nturns:\n${"  - calls: [{ shell: *x }]\n".repeat(99)}`;
    const cases = [
      ["bomb.yaml", big, "expected at most 16777216 bytes once its YAML aliases are expanded"],
      [
        "cycle.yaml",
        "final: done\nturns: &t [{ calls: [{ tool: T, input: { again: *t } }] }]\n",
        "expected no YAML alias inside the node it names",
      ],
    ] as const;
    for (const [name, text, message] of cases) {
      const script = await put(repo.dir, name, text);
      // No npm and an empty cache: a run that got past the script would stop at the install.
      const result = await witnessInProcessWith({
        cwd: repo.dir,
        args: ["probe", "--cli", "claude-code@2.1.332", "--script", script, "--", "-p", "hi"],
        env: { PATH: "/nonexistent", WITNESS_CACHE: join(repo.dir, "cache") },
      });
      expectRefusal(result, `${script}: ${message}`);
    }
  });

  it("refuses a fixture of 20 000 markers before any work, naming the bound", async () => {
    const content = Array.from({ length: 20_000 }, (_, i) => `{{marker:M${i}}}`).join(" ");
    const fixture = await put(
      repo.dir,
      "fixture.yaml",
      `files:\n  - { at: workspace, path: a.md, content: "${content}" }\n`,
    );
    const result = await witnessInProcessWith({
      cwd: repo.dir,
      args: ["probe", "--cli", "claude-code@2.1.332", "--fixture", fixture, "--", "-p", "hi"],
      env: { PATH: "/nonexistent", WITNESS_CACHE: join(repo.dir, "cache") },
    });
    expectRefusal(result, `${fixture}: files: expected at most 100 distinct {{marker:NAME}} names`);
  });

  it("refuses a symlinked protocol", async () => {
    const real = await put(repo.dir, "elsewhere/0001-demo.yaml", protocolText());
    await put(repo.dir, "docs/prereg/.keep", "");
    await symlink(real, join(repo.dir, "docs/prereg/0001-demo.yaml"));
    await commit(repo.dir, "a protocol that is a symlink");
    expectRefusal(
      await witnessInProcess(repo.dir, "prereg", "verify"),
      "0001-demo.yaml: expected the protocol as a regular file; got a symlink",
    );
  });

  it("refuses two protocol files with one id, naming both", async () => {
    await put(repo.dir, "docs/prereg/0001-demo.yaml", protocolText());
    await put(repo.dir, "docs/prereg/0001-other.yaml", protocolText({ slug: "other" }));
    for (const args of [
      ["prereg", "verify"],
      ["run", "--all"],
      ["adr", "check"],
    ]) {
      expectRefusal(
        await witnessInProcess(repo.dir, ...args),
        '0001-other.yaml: id: expected an id no other protocol has; 0001-demo.yaml has "0001" too',
      );
    }
  });
});

describe("a NUL in a node prompt", () => {
  it("is refused when the workflow is read, before state.json exists", async () => {
    const state = join(await mkdtemp(join(tmpdir(), "witness-nul-")), "state");
    try {
      const workflow = join(WITNESS_ROOT, "orchestrator/test/fixtures/malformed/nul-prompt.yaml");
      const result = await witnessInProcess(
        repo.dir,
        "orchestrate",
        "run",
        workflow,
        "--state",
        state,
      );
      expectRefusal(result, `${workflow}: nodes.0.prompt: expected a prompt without NUL`);
      expect(existsSync(join(state, "state.json"))).toBe(false);
    } finally {
      await rm(join(state, ".."), { recursive: true, force: true });
    }
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { WITNESS_ROOT as ROOT } from "../../test/support/built-cli.js";
import { runCliInProcess } from "../../test/support/in-process-cli.js";

const FAKE_NPM = join(ROOT, "probes", "test", "fixtures", "fake-npm");

let cache: string;
beforeEach(async () => {
  cache = await mkdtemp(join(tmpdir(), "witness-vendors-cli-"));
});
afterEach(async () => {
  await rm(cache, { recursive: true, force: true });
});

// witness, in process, with an empty cache and a fake npm first on PATH (it installs tiny stand-in CLIs).
function witness(...args: string[]) {
  return runCliInProcess({
    args,
    cwd: ROOT,
    env: buildChildEnv({
      parent: process.env,
      set: { WITNESS_CACHE: cache, PATH: `${FAKE_NPM}:${process.env.PATH ?? ""}`, HOME: cache },
    }),
  });
}

describe("witness vendors (in process, fake npm)", () => {
  it("adds two CLIs, lists them and prints each binary's path", async () => {
    const add = await witness("vendors", "add", "claude-code@2.1.332", "codex@0.171.0");
    expect(add.stderr).toBe("");
    expect(add.exitCode).toBe(0);
    const claudeBin = join(cache, "claude-code@2.1.332", "node_modules", ".bin", "claude");
    expect(add.stdout).toBe(
      `claude-code@2.1.332\t${claudeBin}\ncodex@0.171.0\t${join(cache, "codex@0.171.0", "node_modules", ".bin", "codex")}\n`,
    );
    const list = await witness("vendors", "list", "--json");
    const entries = JSON.parse(list.stdout) as { name: string; reported: string }[];
    expect(entries.map((e) => `${e.name}@${e.reported}`)).toEqual([
      "claude-code@2.1.332",
      "codex@0.171.0",
    ]);
    const path = await witness("vendors", "path", "claude-code@2.1.332");
    expect(path.stdout).toBe(`${claudeBin}\n`);
  });

  it("exits 2 with npm's own message when the registry has no such version", async () => {
    const add = await witness("vendors", "add", "claude-code@9.9.9");
    expect(add.exitCode).toBe(2);
    expect(add.stderr).toContain(
      "witness: cannot install claude-code@9.9.9 (@anthropic-ai/claude-code) from npm:",
    );
    expect(add.stderr).toContain("No matching version found for @anthropic-ai/claude-code@9.9.9");
    expect(add.stdout).toBe("");
  });

  it("exits 2 for a reference that is not name@exact-version", async () => {
    const add = await witness("vendors", "add", "codex@latest");
    expect(add.exitCode).toBe(2);
    expect(add.stderr).toMatch(/"codex@latest": expected an exact version like 2\.1\.332/);
  });
});

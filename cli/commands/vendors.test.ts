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

  it("exits 2 on a version the driver does not drive, before any download, naming the range", async () => {
    const add = await witness("vendors", "add", "cline@2.18.0");
    expect(add.exitCode).toBe(2);
    expect(add.stderr).toMatch(
      /^witness: cline@2\.18\.0 is not driven: the Cline driver drives 3\.0\.0 and later \(.*\); nearest published it drives: 3\.0\.57\n$/,
    );
    expect(add.stdout).toBe("");
    const list = await witness("vendors", "list", "--json");
    expect(JSON.parse(list.stdout)).toEqual([]);
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

  it("adds pi@1.6.0 from the package it moved to, and exits 2 on a pi version neither name published", async () => {
    const add = await witness("vendors", "add", "pi@1.6.0");
    expect(add.stderr).toBe("");
    expect(add.exitCode).toBe(0);
    const path = await witness("vendors", "path", "pi@1.6.0", "--json");
    expect(JSON.parse(path.stdout)).toMatchObject({ pkg: "@earendil-works/pi-coding-agent" });
    const bad = await witness("vendors", "add", "pi@0.77.0");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      "witness: pi@0.77.0 was never published (@mariozechner/pi-coding-agent or @earendil-works/pi-coding-agent); nearest published under @mariozechner/pi-coding-agent: 0.73.1; under @earendil-works/pi-coding-agent: 0.76.0, 0.78.0\n",
    );
    // witness probe refuses it the same way, before any cell exists.
    const probe = await witness("probe", "--cli", "pi@0.77.0", "--", "-p", "hi");
    expect(probe.exitCode).toBe(2);
    expect(probe.stderr).toBe(bad.stderr);
  });

  it("exits 2 for a reference that is not name@exact-version", async () => {
    const add = await witness("vendors", "add", "codex@latest");
    expect(add.exitCode).toBe(2);
    expect(add.stderr).toMatch(/"codex@latest": expected an exact version like 2\.1\.332/);
  });
});

// Every shell file witness ships or runs, and every shim it renders, passes shellcheck.
import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { buildChildEnv } from "../core/child-env.js";
import { runProcess } from "../core/exec.js";
import { installShims } from "../shims/install.js";
import { WITNESS_ROOT } from "./support/built-cli.js";
import { tempDir } from "./support/temp-dir.js";

const SKIP = new Set(["node_modules", "dist", ".git"]);

/** Files named *.sh or starting with a sh/bash shebang, relative to the root. */
function shellFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return shellFiles(path);
    if (entry.name.endsWith(".sh")) return [path];
    const head = readFileSync(path).subarray(0, 32).toString("latin1");
    return /^#!\s*\S*\/(env\s+)?(ba|da)?sh\b/.test(head) ? [path] : [];
  });
}

const env = buildChildEnv({ parent: process.env });
const found = await runProcess({ file: "shellcheck", args: ["--version"], env, cwd: WITNESS_ROOT });
const missing =
  found.spawnError === null
    ? null
    : `shellcheck is not installed (${found.spawnError}); install it (Debian: apt-get install shellcheck) to run these checks`;
if (missing !== null) console.warn(`shell checks skipped: ${missing}`);

async function shellcheck(files: readonly string[]): Promise<string> {
  const result = await runProcess({
    file: "shellcheck",
    args: ["--format=gcc", "--external-sources", "--", ...files],
    env,
    cwd: WITNESS_ROOT,
  });
  return result.stdout + result.stderr;
}

describe.skipIf(missing !== null)("shellcheck", () => {
  const temp = tempDir("witness-shellcheck-");
  afterAll(async () => (await temp).cleanup());

  it("finds the shell files it is meant to check", () => {
    const names = shellFiles(WITNESS_ROOT).map((f) => relative(WITNESS_ROOT, f));
    expect(names).toEqual(
      expect.arrayContaining([
        ".ci/run",
        "shims/assets/shim.sh",
        "probes/isolation/assets/netns-slot.sh",
      ]),
    );
  });

  it("passes every shell file in the repository", async () => {
    expect(await shellcheck(shellFiles(WITNESS_ROOT))).toBe("");
  });

  it("passes the shims as rendered, in each behaviour", async () => {
    const { dir } = await temp;
    await installShims({
      dir,
      names: ["claude"],
      behaviour: { kind: "script", outcome: { exitCode: 3, stdout: "x" } },
    });
    await installShims({
      dir,
      names: ["codex"],
      behaviour: { kind: "plan", calls: [{ stdout: "a" }, { exitCode: 1 }] },
    });
    await installShims({ dir, names: ["sh"], behaviour: { kind: "pass-through" } });
    expect(await shellcheck(["claude", "codex", "sh"].map((n) => join(dir, n)))).toBe("");
  });

  it("reports a real finding, so a pass means something", async () => {
    const { dir } = await temp;
    const bad = join(dir, "bad.sh");
    await writeFile(bad, "#!/bin/sh\nrm -rf $1/*\n");
    expect(await shellcheck([bad])).toMatch(/SC2086/);
  });
});

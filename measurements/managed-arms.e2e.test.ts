// `managed: require-absent` through the built binary, run in a mount namespace that sees a planted
// /etc/claude-code/CLAUDE.md: `witness probe` and `witness run` refuse before installing anything.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { lockProtocol } from "../prereg/lock.js";
import { builtCli } from "../test/support/built-cli.js";
import { protocolText } from "../test/support/observations.js";
import { privateMountsUnavailable, withPlantedEtc } from "../test/support/planted-etc.js";
import { commit, put, putAdr, tempGitRepo } from "../test/support/witness-repo.js";

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

describe("managed: require-absent through the built CLI", () => {
  const planted = { "/etc/claude-code/CLAUDE.md": "managed memory" };
  let root = "";
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "witness-managed-cli-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));
  const env = () => ({ HOME: root, PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" });

  it("witness probe and witness run exit 2 naming the managed file, installing nothing", async (ctx) => {
    const unavailable = await privateMountsUnavailable();
    if (unavailable !== null) ctx.skip(unavailable);
    const before = existsSync("/etc/claude-code/CLAUDE.md");
    const cache = join(root, "cache");
    await mkdir(cache);
    const fixture = join(root, "fixture.yaml");
    await writeFile(fixture, "managed: require-absent\n");
    await mkdir(join(root, "etc-probe"));
    const probed = await withPlantedEtc(join(root, "etc-probe"), planted, {
      file: process.execPath,
      args: [
        builtCli(),
        "probe",
        "--cli",
        "claude-code@2.1.332",
        "--fixture",
        fixture,
        "--cache",
        cache,
        "--",
        "-p",
        "hi",
      ],
      env: env(),
      cwd: root,
    });
    expect(probed.exitCode, probed.stderr).toBe(2);
    expect(probed.stderr).toContain("refused (managed-present): /etc/claude-code/CLAUDE.md: ");
    expect(probed.stderr).not.toMatch(/\n\s+at /);

    await register("require-absent");
    await mkdir(join(root, "etc-run"));
    const ran = await withPlantedEtc(join(root, "etc-run"), planted, {
      file: process.execPath,
      args: [
        builtCli(),
        "run",
        "docs/prereg/0001-demo.yaml",
        "--out",
        join(root, "records"),
        "--cache",
        cache,
      ],
      env: env(),
      cwd: repo.dir,
    });
    expect(ran.exitCode, ran.stderr).toBe(2);
    expect(ran.stderr).toContain(
      "docs/prereg/0001-demo.yaml: arm 0001/only: refused (managed-present): /etc/claude-code/CLAUDE.md: ",
    );
    expect(existsSync(join(root, "records", "0001-demo-claude-code-2.1.332.json"))).toBe(false);
    expect(await readdir(cache)).toEqual([]);
    expect(existsSync("/etc/claude-code/CLAUDE.md")).toBe(before);
  }, 60_000);
});

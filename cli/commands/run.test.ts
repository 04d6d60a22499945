import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { lockProtocol } from "../../prereg/lock.js";
import { protocolText } from "../../test/support/observations.js";
import {
  commit,
  put,
  putAdr,
  tempGitRepo,
  WITNESS_ROOT,
  witnessInProcess,
  witnessInProcessWith,
} from "../../test/support/witness-repo.js";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, "docs/prereg/0001-demo.yaml", protocolText());
  await commit(repo.dir, "register");
});
afterEach(() => repo.cleanup());

describe("witness run (in process)", () => {
  it.each([
    [[], "name a protocol file, or pass --all"],
    [["--all", "docs/prereg/0001-demo.yaml"], "not both"],
    [["--all", "--jobs", "0"], "--jobs: expected a positive integer"],
    [["--all", "--spawns", "1.5"], "--spawns: expected a positive integer"],
    [["--all", "--timeout", "0"], "--timeout 0: expected a number of seconds above 0"],
    [["--all", "--shard", "4/3", "--out", "o"], '--shard "4/3": expected i from 1 to 3; got 4'],
    [
      ["--all", "--shard", "1/3"],
      "--shard writes a partial result, not records: name its directory with --out",
    ],
    [["--all", "--junit", "missing/run.xml"], "--junit missing/run.xml: the directory"],
    [
      ["--all", "--shard", "1/3", "--out", "o", "--gate", "reproduces"],
      "--gate needs the verdicts, which a shard does not have: pass it to witness merge",
    ],
    [
      ["--all", "--gate", "verdicts"],
      'Argument: gate, Given: "verdicts", Choices: "confirmed", "reproduces"',
    ],
    [
      ["--all", "--cli", "claude-code@latest"],
      '--cli "claude-code@latest": expected an exact version like 2.1.332',
    ],
  ])("exits 2 on %j", async (args, message) => {
    const result = await witnessInProcess(repo.dir, "run", ...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("exits 2 on a --cli name no driver has, listing the supported names", async () => {
    const result = await witnessInProcess(repo.dir, "run", "--all", "--cli", "cursor@1.0.0");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      '--cli "cursor@1.0.0": no driver for a CLI named "cursor" (cursor: its agent (cursor-agent) is not published on the npm registry); supported: claude-code, codex',
    );
  });

  it("exits 2 on a version never published, naming the nearest, with nothing installed or written", async () => {
    await lockProtocol("docs/prereg/0001-demo.yaml", { cwd: repo.dir });
    const cache = join(repo.dir, "cache");
    const fakeNpm = join(WITNESS_ROOT, "probes", "test", "fixtures", "fake-npm");
    const result = await witnessInProcessWith({
      cwd: repo.dir,
      args: ["run", "--all", "--cli", "claude-code@2.1.333"],
      env: { PATH: `${fakeNpm}:${process.env.PATH ?? ""}`, WITNESS_CACHE: cache },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "claude-code@2.1.333 was never published (@anthropic-ai/claude-code); nearest published: 2.1.332",
    );
    expect(await readdir(cache).catch(() => [])).toEqual([]);
    expect(await readdir(join(repo.dir, "docs", "measurements"))).toEqual([]);
  });

  it.each([
    [["bisect", "docs/prereg/0001-demo.yaml", "--cli", "claude-code@2.1.282..2.1.300"]],
    [["watch"]],
  ])("%j exits 2 on a --timeout of none or past a day, installing nothing", async (args) => {
    const cache = join(repo.dir, "cache");
    for (const bad of ["0", "86401"]) {
      const result = await witnessInProcessWith({
        cwd: repo.dir,
        args: [...args, "--timeout", bad],
        env: { WITNESS_CACHE: cache },
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`--timeout ${bad}: expected a number of seconds above 0`);
    }
    expect(await readdir(cache).catch(() => [])).toEqual([]);
  });

  it.each([
    ["claude-code@2.1.300..2.1.282", "the range is reversed (2.1.300 comes after 2.1.282)"],
    ["claude-code@2.1.300..2.1.300", "the range's ends are equal"],
    [
      "claude-code@2.1.282..codex@0.171.0",
      "both ends must be versions of one CLI (got claude-code and codex)",
    ],
    ["claude-code@2.1.282", "expected <cli>@<from>..<to>"],
  ])("bisect exits 2 on --cli %s, installing nothing", async (range, message) => {
    const cache = join(repo.dir, "cache");
    const result = await witnessInProcessWith({
      cwd: repo.dir,
      args: ["bisect", "docs/prereg/0001-demo.yaml", "--cli", range],
      env: { WITNESS_CACHE: cache },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(await readdir(cache).catch(() => [])).toEqual([]);
  });

  it("refuses an unlocked protocol with exit 2, naming it and its hash", async () => {
    const result = await witnessInProcess(repo.dir, "run", "--all");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /refused \(prereg-unlocked\): .*0001-demo\.yaml: not locked \(hash sha256:[0-9a-f]{64}\)/,
    );
  });
});

describe("witness prereg (in process)", () => {
  it("writes a valid template with the next free id, then locks it once committed", async () => {
    const made = await witnessInProcess(repo.dir, "prereg", "new", "second-question", "--adr", "3");
    expect(made.exitCode).toBe(0);
    expect(made.stdout.trim()).toBe("docs/prereg/0002-second-question.yaml");
    const unlocked = await witnessInProcess(repo.dir, "prereg", "verify");
    expect(unlocked.exitCode).toBe(1);
    expect(unlocked.stdout).toContain("docs/prereg/0002-second-question.yaml: unlocked");
    const refused = await witnessInProcess(
      repo.dir,
      "prereg",
      "lock",
      "docs/prereg/0002-second-question.yaml",
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("commit the protocol first");
    await commit(repo.dir, "register 0002");
    // The untouched template is no pre-registration: its TODOs and its missing ADR are named.
    const template = await witnessInProcess(
      repo.dir,
      "prereg",
      "lock",
      "docs/prereg/0002-second-question.yaml",
    );
    expect(template.exitCode).toBe(2);
    for (const field of ["title", "hypothesis", "basis.0", "arms.0.description"])
      expect(template.stderr).toContain(
        `0002-second-question.yaml: ${field}: still the template's placeholder`,
      );
    expect(template.stderr).toContain("adr: no ADR 0003 in docs/adr");
    const path = join(repo.dir, "docs/prereg/0002-second-question.yaml");
    await writeFile(path, (await readFile(path, "utf8")).replaceAll("TODO ", "Really "));
    await putAdr(repo.dir, "0003");
    await commit(repo.dir, "write the protocol and its ADR");
    for (const file of ["docs/prereg/0001-demo.yaml", "docs/prereg/0002-second-question.yaml"]) {
      const locked = await witnessInProcess(repo.dir, "prereg", "lock", file);
      expect(locked.exitCode).toBe(0);
      expect(locked.stdout).toMatch(/: locked sha256:[0-9a-f]{64} at commit [0-9a-f]{40}/);
    }
    const verified = await witnessInProcess(repo.dir, "prereg", "verify");
    expect(verified.exitCode).toBe(0);
  });

  it("rejects a slug that is not kebab-case", async () => {
    const result = await witnessInProcess(repo.dir, "prereg", "new", "Bad_Slug", "--adr", "1");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("expected kebab-case");
  });
});

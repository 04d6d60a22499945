// The cell is inert to its own fixture: each escape in test/fixtures/ is refused, nothing it names
// runs, and a repository outside the cell is left as it was.
import { existsSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

import { buildChildEnv } from "../../core/child-env.js";
import { InputError } from "../../core/errors.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { commit, git, put, tempGitRepo } from "../../test/support/witness-repo.js";
import { type Fixture, fixtureSchema } from "../contracts/fixture.js";
import { driverFor } from "../drivers/index.js";
import { type Cell, createCell, removeCell } from "./cell.js";

const FIXTURES = join(import.meta.dirname, "test", "fixtures");
const scenarios = (await readdir(FIXTURES, { withFileTypes: true }))
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

let scratch: { dir: string; cleanup: () => Promise<void> };
let outside: { dir: string; cleanup: () => Promise<void> };

beforeEach(async () => {
  scratch = await tempDir("witness-escape-");
  outside = await tempGitRepo();
  await put(outside.dir, "kept.txt", "a file of the outside repository's branch");
  await commit(outside.dir, "outside");
  const hooks = join(scratch.dir, "hooks");
  await mkdir(hooks);
  await writeFile(join(hooks, "pre-commit"), `#!/bin/sh\ntouch ${join(scratch.dir, "ran")}\n`);
  await chmod(join(hooks, "pre-commit"), 0o755);
});
afterEach(async () => {
  await scratch.cleanup();
  await outside.cleanup();
});

async function scenario(name: string): Promise<unknown> {
  const text = (await readFile(join(FIXTURES, name, "fixture.yaml"), "utf8"))
    .replaceAll("{{ran}}", join(scratch.dir, "ran"))
    .replaceAll("{{hooks}}", join(scratch.dir, "hooks"))
    .replaceAll("{{outside}}", outside.dir);
  return parseYaml(text) as unknown;
}

const outsideState = async () => ({
  head: await git(outside.dir, "rev-parse", "HEAD"),
  files: await git(outside.dir, "ls-files"),
  status: await git(outside.dir, "status", "--porcelain"),
});

describe("a fixture that plants git metadata", () => {
  it("has scenarios to try", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(5);
  });

  it.each(scenarios)(
    "%s: refused where the fixture is read, naming the .git path",
    async (name) => {
      const result = fixtureSchema.safeParse(await scenario(name));
      expect(result.success).toBe(false);
      const gitIssues = result.error?.issues.filter((i) => i.message.includes(".git segment"));
      expect(gitIssues?.length).toBeGreaterThan(0);
      expect(gitIssues?.every((i) => /^files\.\d+\.path$/.test(i.path.join(".")))).toBe(true);
    },
  );

  it.each(scenarios)(
    "%s: handed to the cell unparsed, runs nothing and leaves the outside repository alone",
    async (name) => {
      const before = await outsideState();
      const made = createCell({
        fixture: (await scenario(name)) as Fixture,
        nonce: "n0nce",
        trust: (paths) => driverFor("claude-code").trustWorkspace(paths),
        baseEnv: buildChildEnv({ parent: process.env }),
      });
      const cell = await made.catch((error: unknown) => error);
      if (!(cell instanceof Error)) await removeCell(cell as Cell);
      expect(existsSync(join(scratch.dir, "ran")), "the planted command ran").toBe(false);
      expect(await outsideState()).toEqual(before);
      expect(cell).toBeInstanceOf(InputError);
    },
  );
});

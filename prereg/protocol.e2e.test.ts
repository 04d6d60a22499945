// The bad-input corpus through the built binary: a sample of refusals (a file that is not YAML, a
// whole-document key, a nested field) as a person sees them. protocol.test.ts runs every case in process.
import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { witness, WITNESS_ROOT } from "../test/support/witness-repo.js";

const BAD = join(WITNESS_ROOT, "prereg", "test", "fixtures", "bad");
const SAMPLES = ["0001-bad-yaml.yaml", "0001-unknown-field.yaml", "0001-unknown-path-root.yaml"];

describe("the built CLI on a sample of the bad-input corpus", () => {
  let dir = "";
  let expected: Record<string, { path: string; message: string }> = {};
  beforeAll(async () => {
    expected = JSON.parse(await readFile(join(BAD, "expected.json"), "utf8")) as typeof expected;
    dir = await mkdtemp(join(tmpdir(), "witness-bad-"));
    for (const name of SAMPLES) await copyFile(join(BAD, name), join(dir, name));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(SAMPLES)("prereg verify and run exit 2 on %s with file: path: message", async (name) => {
    const want = expected[name];
    const line = `witness: ${join(dir, name)}: ${want?.path === "" ? "" : `${want?.path}: `}`;
    for (const args of [
      ["prereg", "verify", name],
      ["run", name, "--out", join(dir, "records")],
    ]) {
      const result = await witness(dir, ...args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(line);
      expect(result.stderr).toContain(want?.message ?? "");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe("");
    }
    await expect(readdir(join(dir, "records"))).rejects.toThrow();
  });
});

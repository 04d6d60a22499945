import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { canonicalHash } from "../core/canonical.js";
import { InputError } from "../core/errors.js";
import { protocolText } from "../test/support/observations.js";
import { witnessInProcess } from "../test/support/witness-repo.js";
import { loadProtocol, parseProtocol } from "./load.js";

const BAD = join(dirname(fileURLToPath(import.meta.url)), "test", "fixtures", "bad");
const expected = JSON.parse(await readFile(join(BAD, "expected.json"), "utf8")) as Record<
  string,
  { path: string; message: string }
>;
const badFiles = (await readdir(BAD)).filter((n) => n.endsWith(".yaml")).sort();

describe("the protocol parser", () => {
  it("accepts a valid protocol and fills in the defaults", () => {
    const p = parseProtocol(protocolText(), "docs/prereg/0001-demo.yaml");
    expect(p.arms[0]?.fixture.workspace).toBe("outside-home");
    expect(p.arms[0]?.expect).toHaveLength(3);
    expect(p.spawns).toBe(2);
  });

  it("gives the same canonical hash whatever the formatting, key order and comments", () => {
    const a = parseProtocol(protocolText(), "x/0001-demo.yaml");
    const reordered = protocolText().replace(
      'id: "0001"\nslug: demo\n',
      'slug: demo # a comment\nid: "0001"\n',
    );
    const b = parseProtocol(reordered, "x/0001-demo.yaml");
    expect(canonicalHash(b)).toBe(canonicalHash(a));
  });

  it("gives a different canonical hash when one expected outcome changes", () => {
    const a = parseProtocol(protocolText(), "x/0001-demo.yaml");
    const b = parseProtocol(protocolText({ expectB: "marker-present" }), "x/0001-demo.yaml");
    expect(canonicalHash(b)).not.toBe(canonicalHash(a));
  });

  it("ships a bad-input case for every file in the corpus", () => {
    expect(Object.keys(expected).sort()).toEqual(badFiles);
    expect(badFiles.length).toBeGreaterThanOrEqual(12);
  });

  it.each(badFiles)("rejects %s naming the field and what was expected", async (name) => {
    const file = join(BAD, name);
    const error = await loadProtocol(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    const issues = (error as InputError).issues;
    const want = expected[name];
    expect(issues.some((i) => i.path === want?.path && i.message.includes(want.message))).toBe(
      true,
    );
    expect((error as InputError).message.startsWith(`${file}: `)).toBe(true);
  });
});

describe("witness prereg verify and run on the bad-input corpus (in process)", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-bad-"));
    for (const name of badFiles) await copyFile(join(BAD, name), join(dir, name));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(badFiles)("prereg verify and run exit 2 on %s with file: path: message", async (name) => {
    const want = expected[name];
    const line = `witness: ${join(dir, name)}: ${want?.path === "" ? "" : `${want?.path}: `}`;
    for (const args of [
      ["prereg", "verify", name],
      ["run", name, "--out", join(dir, "records")],
    ]) {
      const result = await witnessInProcess(dir, ...args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(line);
      expect(result.stderr).toContain(want?.message ?? "");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    // Nothing half-written: a refused run leaves no records directory.
    await expect(readdir(join(dir, "records"))).rejects.toThrow();
  });
});

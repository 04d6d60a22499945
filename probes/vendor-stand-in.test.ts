// A vendor cache entry npm did not verify (no package in its hidden lockfile, or no integrity) is
// refused by name unless it says why it is a stand-in; a marked stand-in runs and says so.
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { cliPath, ensureCli, installedFacts } from "./vendor-cache.js";

const FAKE_NPM_DIR = join(import.meta.dirname, "test", "fixtures", "fake-npm");
const ref = { name: "claude-code", version: "2.1.332" } as const;

let dir: string;
let cacheDir: string;
let entry: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-stand-in-test-"));
  cacheDir = join(dir, "cache");
  entry = join(cacheDir, "claude-code@2.1.332");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

// A wrapper dropped in by hand as Claude Code, with `extra` in its metadata.
async function plant(extra: Record<string, unknown> = {}, lock?: unknown): Promise<void> {
  await mkdir(join(entry, "bin"), { recursive: true });
  await writeFile(join(entry, "bin", "claude"), "#!/bin/sh\necho 2.1.332\n");
  await chmod(join(entry, "bin", "claude"), 0o755);
  const meta = { name: "claude-code", version: "2.1.332", pkg: "@anthropic-ai/claude-code" };
  await writeFile(
    join(entry, "witness-vendor.json"),
    JSON.stringify({
      ...meta,
      bin: "bin/claude",
      reported: "2.1.332",
      installedAt: "now",
      ...extra,
    }),
  );
  if (lock !== undefined) {
    await mkdir(join(entry, "node_modules"), { recursive: true });
    await writeFile(join(entry, "node_modules", ".package-lock.json"), JSON.stringify(lock));
  }
}

const refusal = (what: string) =>
  new RegExp(`witness-vendor\\.json: standIn: expected it set; ${what}`);

describe("an unverified vendor cache entry", () => {
  it("is refused by ensureCli and cliPath, naming the file and the field, when it holds no package npm installed", async () => {
    await plant();
    const got = ensureCli(ref, { cacheDir });
    await expect(got).rejects.toBeInstanceOf(UsageError);
    await expect(got).rejects.toThrow(refusal("npm installed no @anthropic-ai/claude-code here"));
    await expect(cliPath(ref, { cacheDir })).rejects.toThrow(refusal("npm installed no"));
  });

  it("is refused when npm recorded no integrity for the CLI's package", async () => {
    const pkg = { version: "2.1.332" };
    await plant({}, { packages: { "node_modules/@anthropic-ai/claude-code": pkg } });
    await expect(ensureCli(ref, { cacheDir })).rejects.toThrow(
      refusal("npm recorded no integrity for @anthropic-ai/claude-code"),
    );
  });

  it("runs when npm's lockfile names the package with its integrity", async () => {
    const pkg = { version: "2.1.332", integrity: "sha512-x" };
    await plant({}, { packages: { "node_modules/@anthropic-ai/claude-code": pkg } });
    expect((await ensureCli(ref, { cacheDir })).bin).toBe(join(entry, "bin", "claude"));
    expect((await installedFacts(ref, { cacheDir }))?.standIn).toBeUndefined();
  });

  it("runs when marked a stand-in, and its facts say so", async () => {
    await plant({ standIn: "a test's wrapper" });
    expect((await cliPath(ref, { cacheDir })) ?? "").toBe(join(entry, "bin", "claude"));
    expect(await installedFacts(ref, { cacheDir })).toMatchObject({
      standIn: "a test's wrapper",
      integrity: null,
    });
  });

  it("an installer that is not npm marks its entry through witness-stand-in (the tests' fake npm)", async () => {
    const env = { PATH: `${FAKE_NPM_DIR}:${process.env.PATH ?? ""}`, HOME: dir };
    await ensureCli(ref, { cacheDir, env });
    const meta = JSON.parse(await readFile(join(entry, "witness-vendor.json"), "utf8")) as {
      standIn?: string;
    };
    expect(meta.standIn).toBe("the test fake npm's claude (prints its version only)");
    expect((await installedFacts(ref, { cacheDir }))?.standIn).toBe(meta.standIn);
  });
});

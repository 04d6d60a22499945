import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import {
  cliPath,
  defaultCacheDir,
  ensureCli,
  listCli,
  parseReportedVersion,
} from "./vendor-cache.js";

const FAKE_NPM_DIR = join(import.meta.dirname, "test", "fixtures", "fake-npm");

let dir: string;
let log: string;
let env: Record<string, string | undefined>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-vendor-test-"));
  log = join(dir, "npm.log");
  // The fake npm goes first on PATH; npm_config_* passes the allow-list, so it carries the log path.
  env = {
    PATH: `${FAKE_NPM_DIR}:${process.env.PATH ?? ""}`,
    HOME: dir,
    npm_config_witness_fake_log: log,
  };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function installs(): Promise<string[]> {
  try {
    return (await readFile(log, "utf8")).trim().split("\n");
  } catch {
    return [];
  }
}

describe("the vendor cache", () => {
  it("installs an exact version and resolves its binary and reported version", async () => {
    const cacheDir = join(dir, "cache");
    const got = await ensureCli({ name: "claude-code", version: "2.1.332" }, { cacheDir, env });
    expect(got.version).toBe("2.1.332");
    expect(got.bin).toBe(join(cacheDir, "claude-code@2.1.332", "node_modules", ".bin", "claude"));
    expect(await installs()).toEqual(["install @anthropic-ai/claude-code@2.1.332"]);
    expect(await cliPath({ name: "claude-code", version: "2.1.332" }, { cacheDir })).toBe(got.bin);
  });

  it("gives npm the machine's CA and proxy settings, and never a secret", async () => {
    const seen = join(dir, "npm.env");
    await ensureCli(
      { name: "codex", version: "0.171.0" },
      {
        cacheDir: join(dir, "cache"),
        env: {
          ...env,
          npm_config_witness_fake_env: seen,
          NODE_EXTRA_CA_CERTS: "/etc/ssl/proxy-ca.pem",
          HTTPS_PROXY: "http://proxy.invalid:3128",
          NPM_TOKEN: "npm_secret",
          OPENAI_API_KEY: "sk-secret",
        },
      },
    );
    const lines = (await readFile(seen, "utf8")).split("\n");
    expect(lines).toContain("NODE_EXTRA_CA_CERTS=/etc/ssl/proxy-ca.pem");
    expect(lines).toContain("HTTPS_PROXY=http://proxy.invalid:3128");
    expect(lines.filter((l) => /^(NPM_TOKEN|OPENAI_API_KEY)=/.test(l))).toEqual([]);
  });

  it("does not run npm again for a version already in the cache", async () => {
    const cacheDir = join(dir, "cache");
    await ensureCli({ name: "codex", version: "0.171.0" }, { cacheDir, env });
    const again = await ensureCli({ name: "codex", version: "0.171.0" }, { cacheDir, env });
    expect(again.version).toBe("0.171.0");
    expect(await installs()).toHaveLength(1);
  });

  it("survives two installs of the same version at once, leaving one complete copy", async () => {
    const cacheDir = join(dir, "cache");
    const ref = { name: "codex", version: "0.171.0" } as const;
    const [a, b] = await Promise.all([
      ensureCli(ref, { cacheDir, env }),
      ensureCli(ref, { cacheDir, env }),
    ]);
    expect(a.bin).toBe(b.bin);
    expect(await installs()).toHaveLength(2);
    expect(await readdir(cacheDir)).toEqual(["codex@0.171.0"]);
    expect((await listCli({ cacheDir })).map((e) => `${e.name}@${e.reported}`)).toEqual([
      "codex@0.171.0",
    ]);
  });

  it("turns a registry failure into a usage error carrying npm's message, and caches nothing", async () => {
    const cacheDir = join(dir, "cache");
    const failing = ensureCli({ name: "claude-code", version: "9.9.9" }, { cacheDir, env });
    await expect(failing).rejects.toBeInstanceOf(UsageError);
    await expect(failing).rejects.toThrow(/No matching version found/);
    expect(await readdir(cacheDir)).toEqual([]);
    expect(await cliPath({ name: "claude-code", version: "9.9.9" }, { cacheDir })).toBeNull();
  });

  it("says npm could not start when npm is not on PATH", async () => {
    const cacheDir = join(dir, "cache");
    const failing = ensureCli(
      { name: "codex", version: "0.171.0" },
      { cacheDir, env: { ...env, PATH: join(dir, "nowhere") } },
    );
    await expect(failing).rejects.toThrow(/npm could not start/);
  });

  it("lives in WITNESS_CACHE, else XDG_CACHE_HOME/witness, else ~/.cache/witness", () => {
    expect(defaultCacheDir({ WITNESS_CACHE: "/c", XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe("/c");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x", HOME: "/h" })).toBe("/x/witness");
    expect(defaultCacheDir({ HOME: "/h" })).toBe("/h/.cache/witness");
  });

  it("reads the version out of each CLI's --version line", () => {
    expect(parseReportedVersion("2.1.332 (Claude Code)\n")).toBe("2.1.332");
    expect(parseReportedVersion("codex-cli 0.171.0\n")).toBe("0.171.0");
    expect(parseReportedVersion("no version here")).toBeNull();
  });
});

import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { npmRelevantLine } from "./npm.js";
import {
  cliPath,
  defaultCacheDir,
  ensureCli,
  installedFacts,
  listCli,
  parseReportedVersion,
} from "./vendor-cache.js";
import { installAll, nearestPublished, publishedVersions } from "./vendor-registry.js";

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

  it("leaves the entry readable by a sandboxed spawn's own uid (mkdtemp makes 0700)", async () => {
    const cacheDir = join(dir, "cache");
    await ensureCli({ name: "claude-code", version: "2.1.332" }, { cacheDir, env });
    expect((await stat(join(cacheDir, "claude-code@2.1.332"))).mode & 0o777).toBe(0o755);
  });

  it("trusts no cache entry whose binary path leaves the entry", async () => {
    const cacheDir = join(dir, "cache");
    const entry = join(cacheDir, "claude-code@2.1.332");
    await mkdir(entry, { recursive: true });
    await writeFile(join(dir, "elsewhere"), "#!/bin/sh\n");
    const bad = {
      name: "claude-code",
      version: "2.1.332",
      pkg: "@anthropic-ai/claude-code",
      bin: "../../elsewhere",
      reported: "2.1.332",
      installedAt: "2026-01-01T00:00:00.000Z",
    };
    await writeFile(join(entry, "witness-vendor.json"), JSON.stringify(bad));
    expect(await cliPath({ name: "claude-code", version: "2.1.332" }, { cacheDir })).toBeNull();
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

  it("runs the version check with its own throwaway HOME, XDG directories and TMPDIR, removed afterwards", async () => {
    const seen = join(dir, "version.env");
    const cacheDir = join(dir, "cache");
    await ensureCli(
      { name: "opencode", version: "1.18.33" },
      { cacheDir, env: { ...env, npm_config_witness_fake_version_env: seen } },
    );
    const vars = Object.fromEntries(
      (await readFile(seen, "utf8"))
        .split("\n")
        .filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    const home = vars.HOME ?? "";
    expect(home).toMatch(/witness-version-/);
    expect(home).not.toBe(dir);
    for (const name of [
      "TMPDIR",
      "XDG_CONFIG_HOME",
      "XDG_DATA_HOME",
      "XDG_CACHE_HOME",
      "XDG_STATE_HOME",
    ])
      expect(vars[name], name).toMatch(new RegExp(`^${home}/`));
    expect(existsSync(home)).toBe(false);
  });

  it("reads the version from stderr when the CLI prints it there (pi)", async () => {
    const got = await ensureCli(
      { name: "pi", version: "0.73.1" },
      { cacheDir: join(dir, "cache"), env },
    );
    expect(got.version).toBe("0.73.1");
  });

  it("does not run npm again for a version already in the cache", async () => {
    const cacheDir = join(dir, "cache");
    await ensureCli({ name: "codex", version: "0.171.0" }, { cacheDir, env });
    const again = await ensureCli({ name: "codex", version: "0.171.0" }, { cacheDir, env });
    expect(again.version).toBe("0.171.0");
    expect(await installs()).toHaveLength(1);
  });

  it("installs a version once when two spawns ask for it at once, leaving one complete copy", async () => {
    const cacheDir = join(dir, "cache");
    const ref = { name: "codex", version: "0.171.0" } as const;
    const [a, b] = await Promise.all([
      ensureCli(ref, { cacheDir, env }),
      ensureCli(ref, { cacheDir, env }),
    ]);
    expect(a.bin).toBe(b.bin);
    expect(await installs()).toHaveLength(1);
    expect(await readdir(cacheDir)).toEqual(["codex@0.171.0"]);
    expect((await listCli({ cacheDir })).map((e) => `${e.name}@${e.reported}`)).toEqual([
      "codex@0.171.0",
    ]);
  });

  it("turns a registry failure into a usage error carrying npm's message, and caches nothing", async () => {
    const cacheDir = join(dir, "cache");
    const failing = ensureCli({ name: "claude-code", version: "9.9.9" }, { cacheDir, env });
    await expect(failing).rejects.toBeInstanceOf(UsageError);
    await expect(failing).rejects.toThrow(
      /from npm: notarget No matching version found for @anthropic-ai\/claude-code@9\.9\.9\.$/,
    );
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

describe("installing what a run needs, before any spawn", () => {
  it("asks the registry once per CLI and installs each version once", async () => {
    const cacheDir = join(dir, "cache");
    const refs = [
      { name: "claude-code", version: "2.1.282" },
      { name: "claude-code", version: "2.1.332" },
      { name: "claude-code", version: "2.1.282" },
    ] as const;
    const got = await installAll(refs, { cacheDir, env });
    expect([...got.keys()]).toEqual(["claude-code@2.1.282", "claude-code@2.1.332"]);
    expect(await installs()).toEqual([
      "view @anthropic-ai/claude-code",
      "install @anthropic-ai/claude-code@2.1.282",
      "install @anthropic-ai/claude-code@2.1.332",
    ]);
    // Both cached now: no registry query, no install.
    await installAll(refs, { cacheDir, env });
    expect(await installs()).toHaveLength(3);
  });

  it("refuses a version never published, naming the nearest, and installs nothing", async () => {
    const cacheDir = join(dir, "cache");
    const run = installAll(
      [
        { name: "codex", version: "0.171.0" },
        { name: "claude-code", version: "2.1.333" },
      ],
      { cacheDir, env },
    );
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(
      "claude-code@2.1.333 was never published (@anthropic-ai/claude-code); nearest published: 2.1.332, 9.9.9",
    );
    expect((await installs()).filter((l) => l.startsWith("install"))).toEqual([]);
  });

  it("installs a version of a renamed CLI from the package that published it (pi 1.6.0 from @earendil-works)", async () => {
    const cacheDir = join(dir, "cache");
    const got = await installAll([{ name: "pi", version: "1.6.0" }], { cacheDir, env });
    expect(got.get("pi@1.6.0")?.version).toBe("1.6.0");
    // Both packages are asked at once, so the two queries may be logged in either order.
    const calls = await installs();
    expect(calls.slice(0, 2).sort()).toEqual([
      "view @earendil-works/pi-coding-agent",
      "view @mariozechner/pi-coding-agent",
    ]);
    expect(calls.slice(2)).toEqual(["install @earendil-works/pi-coding-agent@1.6.0"]);
    const entry = (await listCli({ cacheDir }))[0];
    expect(entry?.pkg).toBe("@earendil-works/pi-coding-agent");
  });

  it("refuses a version of a renamed CLI published under neither name, naming the nearest under each", async () => {
    const cacheDir = join(dir, "cache");
    const run = installAll([{ name: "pi", version: "0.77.0" }], { cacheDir, env });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(
      "pi@0.77.0 was never published (@mariozechner/pi-coding-agent or @earendil-works/pi-coding-agent); nearest published under @mariozechner/pi-coding-agent: 0.73.1; under @earendil-works/pi-coding-agent: 0.76.0, 0.78.0",
    );
    const old = installAll([{ name: "pi", version: "0.50.0" }], { cacheDir, env });
    await expect(old).rejects.toThrow(
      "nearest published under @mariozechner/pi-coding-agent: 0.72.0; under @earendil-works/pi-coding-agent: 0.74.0",
    );
    expect((await installs()).filter((l) => l.startsWith("install"))).toEqual([]);
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
  });

  it("refuses a version its driver does not drive before any install, naming the range and the nearest it drives", async () => {
    const cacheDir = join(dir, "cache");
    const run = installAll([{ name: "cline", version: "2.18.0" }], { cacheDir, env });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(
      /^cline@2\.18\.0 is not driven: the Cline driver drives 3\.0\.0 and later \(2\.x is .*\); nearest published it drives: 3\.0\.57$/,
    );
    expect(await installs()).toEqual(["view cline"]);
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
  });

  it("refuses a version published without the native program its driver runs, before any install", async () => {
    const cacheDir = join(dir, "cache");
    const run = installAll([{ name: "kilo", version: "7.8.1" }], { cacheDir, env });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(
      "kilo@7.8.1 has no linux-x64 program: @kilocode/cli-linux-x64 was never published at 7.8.1; nearest published with it: 7.7.7",
    );
    expect(await installs()).toEqual(["view @kilocode/cli", "view @kilocode/cli-linux-x64"]);
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
  });

  it("stops on an unreachable registry with npm's one relevant line", async () => {
    const offline = { ...env, npm_config_witness_fake_offline: "1" };
    const run = publishedVersions("codex", { env: offline });
    await expect(run).rejects.toThrow(
      /^cannot list @openai\/codex's versions from npm: network request to https:\/\/registry\.example\/x failed, reason: getaddrinfo ENOTFOUND registry\.example$/,
    );
  });

  it("finds the releases on either side of a version, skipping pre-releases", () => {
    const list = ["2.1.330", "2.1.331", "2.1.332", "2.1.340-beta.1", "2.1.341"];
    expect(nearestPublished("2.1.335", list)).toEqual(["2.1.332", "2.1.341"]);
    expect(nearestPublished("0.0.1", list)).toEqual(["2.1.330"]);
  });

  it("keeps npm's message and drops its code, errno and log-file lines", () => {
    const stderr =
      "npm error code E404\nnpm error 404 Not Found - GET https://r/x - Not found\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n";
    expect(npmRelevantLine(stderr)).toBe("404 Not Found - GET https://r/x - Not found");
  });

  it("reads what a record says of an install: the resolved binary and npm's integrity, running nothing", async () => {
    const cacheDir = join(dir, "cache");
    const ref = { name: "claude-code", version: "2.1.332" } as const;
    expect(await installedFacts(ref, { cacheDir })).toBeNull();
    const entry = join(cacheDir, "claude-code@2.1.332");
    const pkgDir = join(entry, "node_modules", "@anthropic-ai", "claude-code");
    await mkdir(pkgDir, { recursive: true });
    await mkdir(join(entry, "node_modules", ".bin"));
    await writeFile(join(pkgDir, "cli.js"), "");
    await symlink(
      "../@anthropic-ai/claude-code/cli.js",
      join(entry, "node_modules", ".bin", "claude"),
    );
    await writeFile(
      join(entry, "witness-vendor.json"),
      JSON.stringify({
        name: "claude-code",
        version: "2.1.332",
        pkg: "@anthropic-ai/claude-code",
        bin: "node_modules/.bin/claude",
        reported: "2.1.332",
        installedAt: "2026-12-01T00:00:00.000Z",
      }),
    );
    expect(await installedFacts(ref, { cacheDir })).toMatchObject({
      resolvedBin: join(pkgDir, "cli.js"),
      integrity: null,
      packages: [],
    });
    await writeFile(
      join(entry, "node_modules", ".package-lock.json"),
      JSON.stringify({
        packages: {
          "node_modules/@anthropic-ai/claude-code": { version: "2.1.332", integrity: "sha512-abc" },
          "node_modules/@img/sharp-linux-x64": { version: "0.34.0" },
        },
      }),
    );
    const facts = await installedFacts(ref, { cacheDir });
    expect(facts?.integrity).toBe("sha512-abc");
    expect(facts?.packages).toEqual([
      { name: "@anthropic-ai/claude-code", version: "2.1.332", integrity: "sha512-abc" },
      { name: "@img/sharp-linux-x64", version: "0.34.0", integrity: null },
    ]);
  });
});

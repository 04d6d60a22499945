import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { claudeCodeFlags, plantClaudeCodeFlags } from "./claude-code-flags.js";
import { flagSwitches } from "./driver.js";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "witness-flags-"));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const input = (env: Record<string, string>) => ({
  cell: { root: home, home, workspace: home, codexHome: home },
  env: { HOME: home, ...env },
  baseUrl: "http://127.0.0.1:1",
  version: "2.1.332",
});

describe("Claude Code's feature-flag input", () => {
  it("is the release's compiled defaults when the flag service is off, whatever is cached", async () => {
    await writeFile(
      join(home, ".claude.json"),
      JSON.stringify({ cachedGrowthBookFeatures: { f: 1 } }),
    );
    const flags = await claudeCodeFlags(input({ CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" }));
    expect(flags.source).toBe("built-in");
    expect(flags.values).toBeUndefined();
  });

  it("is the cached values, stated, when the service is on but unreachable and ~/.claude.json caches some", async () => {
    await writeFile(
      join(home, ".claude.json"),
      JSON.stringify({ cachedGrowthBookFeatures: { auto_mode: true } }),
    );
    expect(await claudeCodeFlags(input({}))).toMatchObject({
      source: "cache",
      values: { auto_mode: true },
    });
  });

  it("is the compiled defaults, said differently, with nothing cached or an unreadable config", async () => {
    expect((await claudeCodeFlags(input({}))).source).toBe("built-in-unreachable");
    await writeFile(join(home, ".claude.json"), "{not json");
    expect((await claudeCodeFlags(input({}))).source).toBe("built-in-unreachable");
  });
});

describe("flags a fixture sets for Claude Code", () => {
  it("are merged into ~/.claude.json's cache, keeping the trust and the values already cached", async () => {
    const file = join(home, ".claude.json");
    await writeFile(
      file,
      JSON.stringify({
        projects: { "/ws": { hasTrustDialogAccepted: true } },
        cachedGrowthBookFeatures: { kept: 1, tengu_moss_anchor: false },
      }),
    );
    await plantClaudeCodeFlags(home, { tengu_moss_anchor: true });
    const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(config.projects).toEqual({ "/ws": { hasTrustDialogAccepted: true } });
    expect(config.cachedGrowthBookFeatures).toEqual({ kept: 1, tengu_moss_anchor: true });
    expect(await claudeCodeFlags(input({}))).toMatchObject({
      source: "cache",
      values: { kept: 1, tengu_moss_anchor: true },
    });
  });

  it("leave a planted ~/.claude.json that is not JSON alone, and the spawn's input then says so", async () => {
    await writeFile(join(home, ".claude.json"), "{not json");
    await plantClaudeCodeFlags(home, { f: true });
    expect(await readFile(join(home, ".claude.json"), "utf8")).toBe("{not json");
    expect((await claudeCodeFlags(input({}))).source).toBe("built-in-unreachable");
  });

  it("make a ~/.claude.json when the cell has none", async () => {
    await plantClaudeCodeFlags(home, { f: "x" });
    expect((await claudeCodeFlags(input({}))).values).toEqual({ f: "x" });
  });

  it("leave the driver's off switch out of the spawn's environment, and only when set", () => {
    const driver = { flagCache: { plant: plantClaudeCodeFlags, offSwitch: "OFF" } };
    expect(flagSwitches(driver, { featureFlags: { f: true } })).toEqual(["OFF"]);
    expect(flagSwitches(driver, {})).toEqual([]);
    expect(flagSwitches({}, { featureFlags: { f: true } })).toEqual([]);
  });
});

import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { materializeHomeOverlay } from "./home-overlay.js";

describe("materializeHomeOverlay", () => {
  it("links every entry but the excluded ones, and leaves the source untouched", async () => {
    const repo = tempWorkspace();
    for (const name of [
      "auth.json",
      "config.toml",
      "AGENTS.md",
      "AGENTS.override.md",
      "sessions/x",
    ])
      repo.write(`home/.codex/${name}`, name);
    const source = join(repo.home, ".codex");
    const target = join(repo.base, "overlay", "CODEX_HOME");
    await materializeHomeOverlay(
      { variable: "CODEX_HOME", source, exclude: ["AGENTS.md", "AGENTS.override.md"] },
      target,
    );
    expect(readdirSync(target).sort()).toEqual(["auth.json", "config.toml", "sessions"]);
    expect(readlinkSync(join(target, "sessions"))).toBe(join(source, "sessions"));
    expect(readdirSync(source).sort()).toEqual([
      "AGENTS.md",
      "AGENTS.override.md",
      "auth.json",
      "config.toml",
      "sessions",
    ]);
  });

  it("creates an empty home when the operator has none to mirror", async () => {
    const repo = tempWorkspace();
    const target = join(repo.base, "overlay");
    await materializeHomeOverlay(
      { variable: "CODEX_HOME", source: join(repo.home, "missing"), exclude: [] },
      target,
    );
    expect(existsSync(target)).toBe(true);
    expect(readdirSync(target)).toEqual([]);
  });
});

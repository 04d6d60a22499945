import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
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

  it("writes the empty names as empty files in place of the operator's, leaving the source as it was", async () => {
    const repo = tempWorkspace();
    repo.write("home/.config/opencode/AGENTS.md", "operator rules");
    repo.write("home/.config/opencode/opencode.json", "{}");
    const source = join(repo.home, ".config", "opencode");
    const target = join(repo.base, "overlay", "OPENCODE_CONFIG_DIR");
    await materializeHomeOverlay(
      { variable: "OPENCODE_CONFIG_DIR", source, exclude: ["AGENTS.md"], empty: ["AGENTS.md"] },
      target,
    );
    expect(readdirSync(target).sort()).toEqual(["AGENTS.md", "opencode.json"]);
    expect(lstatSync(join(target, "AGENTS.md")).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(target, "AGENTS.md"), "utf8")).toBe("");
    expect(readFileSync(join(source, "AGENTS.md"), "utf8")).toBe("operator rules");
  });

  it("writes the empty names even when the operator has no directory to mirror", async () => {
    const repo = tempWorkspace();
    const target = join(repo.base, "overlay");
    await materializeHomeOverlay(
      {
        variable: "OPENCODE_CONFIG_DIR",
        source: join(repo.home, "missing"),
        exclude: [],
        empty: ["AGENTS.md"],
      },
      target,
    );
    expect(readdirSync(target)).toEqual(["AGENTS.md"]);
  });
});

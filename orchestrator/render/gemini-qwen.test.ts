import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { planLaunch } from "../plan/plan-launch.js";
import { materializeHomeOverlay } from "../run/home-overlay.js";
import type { NodeSpec } from "../spec/schemas.js";
import { geminiContextNames } from "./gemini-qwen.js";

function plan(repo: ReturnType<typeof tempWorkspace>, node: Omit<NodeSpec, "id" | "prompt">) {
  return planLaunch({
    node: { id: "n", prompt: "do it", model: "m", ...node },
    cwd: repo.root,
    env: { HOME: repo.home },
  });
}

describe("Gemini CLI rendering", () => {
  it("renders -m with the prompt on stdin, and under workspace a GEMINI_CLI_HOME whose .gemini mirrors the operator's without its context files and tmp", async () => {
    const repo = tempWorkspace();
    repo.write("home/.gemini/settings.json", '{"context":{"fileName":["AGENTS.md","GEMINI.md"]}}');
    const p = await plan(repo, { adapter: "gemini", ambientContext: "workspace" });
    expect([p.file, p.args, p.stdin]).toEqual(["gemini", ["-m", "m"], "do it"]);
    expect(p.homeOverlay).toEqual({
      variable: "GEMINI_CLI_HOME",
      source: join(repo.home, ".gemini"),
      mirrorInto: ".gemini",
      exclude: ["GEMINI.md", "AGENTS.md", "tmp"],
    });
  });

  it("leaves the operator's home alone under all", async () => {
    const repo = tempWorkspace();
    const p = await plan(repo, { adapter: "gemini", ambientContext: "all" });
    expect(p.homeOverlay).toBeUndefined();
    expect([p.args, p.stdin]).toEqual([["-m", "m"], "do it"]);
  });

  it.each(["none", "operator"] as const)(
    "refuses %s: the workspace's GEMINI.md loads in every headless run (record 0014)",
    async (value) => {
      const repo = tempWorkspace();
      await expect(plan(repo, { adapter: "gemini", ambientContext: value })).rejects.toMatchObject({
        name: "RefusalError",
        message: expect.stringContaining("GEMINI.md") as unknown,
      });
    },
  );

  it("reads the context file names from the operator's settings, GEMINI.md always among them", () => {
    const repo = tempWorkspace();
    const dir = join(repo.home, ".gemini");
    expect(geminiContextNames(dir)).toEqual(["GEMINI.md"]);
    repo.write("home/.gemini/settings.json", '{"context":{"fileName":"CONTEXT.md"}}');
    expect(geminiContextNames(dir)).toEqual(["GEMINI.md", "CONTEXT.md"]);
    repo.write("home/.gemini/settings.json", '{"context":{"fileName":["../x.md", 3]}}');
    expect(geminiContextNames(dir)).toEqual(["GEMINI.md"]);
  });

  it("materializes the mirror inside the overlay's .gemini", async () => {
    const repo = tempWorkspace();
    for (const name of ["settings.json", "GEMINI.md", "tmp/p/memory/MEMORY.md"])
      repo.write(`home/.gemini/${name}`, name);
    const source = join(repo.home, ".gemini");
    const target = join(repo.base, "overlay", "GEMINI_CLI_HOME");
    await materializeHomeOverlay(
      { variable: "GEMINI_CLI_HOME", source, mirrorInto: ".gemini", exclude: ["GEMINI.md", "tmp"] },
      target,
    );
    expect(readdirSync(target)).toEqual([".gemini"]);
    expect(readdirSync(join(target, ".gemini"))).toEqual(["settings.json"]);
    expect(readlinkSync(join(target, ".gemini", "settings.json"))).toBe(
      join(source, "settings.json"),
    );
  });
});

describe("Qwen Code rendering", () => {
  it("renders none with --safe-mode and says what else safe mode turns off", async () => {
    const repo = tempWorkspace();
    const p = await plan(repo, { adapter: "qwen", ambientContext: "none" });
    expect([p.file, p.args, p.stdin]).toEqual(["qwen", ["-m", "m", "--safe-mode"], "do it"]);
    expect(p.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "info", code: "qwen-safe-mode" }),
    );
  });

  it.each(["workspace", "operator", "all"] as const)(
    "renders %s as the CLI's own loading (no switch)",
    async (value) => {
      const repo = tempWorkspace();
      const p = await plan(repo, { adapter: "qwen", ambientContext: value });
      expect([p.args, p.stdin]).toEqual([["-m", "m"], "do it"]);
      expect(p.homeOverlay).toBeUndefined();
    },
  );
});

import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { planLaunch } from "../plan/plan-launch.js";
import { materializeHomeOverlay } from "../run/home-overlay.js";
import type { AmbientContext } from "../spec/schemas.js";

type Repo = ReturnType<typeof tempWorkspace>;

function plan(repo: Repo, value: AmbientContext, env: Record<string, string> = {}) {
  return planLaunch({
    node: { id: "n", adapter: "opencode", prompt: "-x go", model: "p/m", ambientContext: value },
    cwd: repo.root,
    env: { HOME: repo.home, ...env },
  });
}

const overlay = (source: string) => ({
  variable: "OPENCODE_CONFIG_DIR",
  source,
  exclude: ["AGENTS.md"],
  empty: ["AGENTS.md"],
});

describe("opencode rendering of ambient_context: one switch per origin, as Codex", () => {
  it.each([
    ["none", { OPENCODE_DISABLE_PROJECT_CONFIG: "1" }, true],
    ["workspace", {}, true],
    ["operator", { OPENCODE_DISABLE_PROJECT_CONFIG: "1" }, false],
    ["all", {}, false],
  ] as const)(
    "%s: run -m, the prompt on stdin, env %j, a config-dir overlay: %s",
    async (value, env, overlaid) => {
      const repo = tempWorkspace();
      const p = await plan(repo, value);
      expect([p.file, p.args, p.stdin, p.env]).toEqual([
        "opencode",
        ["run", "-m", "p/m"],
        "-x go",
        env,
      ]);
      expect(p.homeOverlay).toEqual(
        overlaid ? overlay(join(repo.home, ".config", "opencode")) : undefined,
      );
    },
  );

  it("mirrors the operator's OPENCODE_CONFIG_DIR when it is set, else XDG_CONFIG_HOME's opencode", async () => {
    const repo = tempWorkspace();
    const xdg = join(repo.base, "xdg");
    expect((await plan(repo, "none", { XDG_CONFIG_HOME: xdg })).homeOverlay?.source).toBe(
      join(xdg, "opencode"),
    );
    const own = join(repo.base, "own");
    expect(
      (await plan(repo, "workspace", { XDG_CONFIG_HOME: xdg, OPENCODE_CONFIG_DIR: own }))
        .homeOverlay?.source,
    ).toBe(own);
  });

  it("materializes the overlay with the operator's entries linked and an empty AGENTS.md", async () => {
    const repo = tempWorkspace();
    repo.write("home/.config/opencode/AGENTS.md", "operator rules");
    repo.write("home/.config/opencode/opencode.json", "{}");
    const p = await plan(repo, "workspace");
    const target = join(repo.base, "run", "OPENCODE_CONFIG_DIR");
    if (p.homeOverlay === undefined) throw new Error("no overlay rendered");
    await materializeHomeOverlay(p.homeOverlay, target);
    expect(readdirSync(target).sort()).toEqual(["AGENTS.md", "opencode.json"]);
    expect(readFileSync(join(target, "AGENTS.md"), "utf8")).toBe("");
    expect(readlinkSync(join(target, "opencode.json"))).toBe(
      join(repo.home, ".config", "opencode", "opencode.json"),
    );
  });

  it.each(["none", "operator"] as const)(
    "warns under %s that the repository's opencode.json and .opencode are dropped too, naming them",
    async (value) => {
      const repo = tempWorkspace();
      const quiet = await plan(repo, value);
      expect(quiet.diagnostics.map((d) => d.code)).not.toContain(
        "ambient-context-project-config-dropped",
      );
      const config = repo.write("repo/opencode.json", "{}");
      const dir = join(repo.write("repo/.opencode/agent/a.md", "x"), "..", "..");
      const warned = await plan(repo, value);
      const found = warned.diagnostics.filter(
        (d) => d.code === "ambient-context-project-config-dropped",
      );
      expect(found).toHaveLength(1);
      expect(found[0]?.message).toContain(config);
      expect(found[0]?.message).toContain(join(dir));
    },
  );

  it("does not warn about the repository's config where it is kept (workspace, all)", async () => {
    const repo = tempWorkspace();
    repo.write("repo/opencode.json", "{}");
    for (const value of ["workspace", "all"] as const)
      expect((await plan(repo, value)).diagnostics.map((d) => d.code)).not.toContain(
        "ambient-context-project-config-dropped",
      );
  });

  it("refuses a value needing the overlay when no config directory is known", async () => {
    const repo = tempWorkspace();
    await expect(
      planLaunch({
        node: { id: "n", adapter: "opencode", prompt: "go", ambientContext: "none" },
        cwd: repo.root,
        env: {},
      }),
    ).rejects.toMatchObject({ name: "RefusalError", code: "operator-home-unknown" });
  });
});

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it, vi } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import type { ParentAccess } from "../parent-access/parent-access.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { AmbientContext } from "../spec/schemas.js";

type Repo = ReturnType<typeof tempWorkspace>;

function plan(value: AmbientContext, plant: (repo: Repo) => void = () => undefined) {
  const repo = tempWorkspace();
  plant(repo);
  return planLaunch({
    node: { id: "n", adapter: "kilo", prompt: "-go", model: "witness/m", ambientContext: value },
    cwd: repo.root,
    env: { HOME: repo.home },
  }).then((p) => ({ p, repo }));
}

function put(path: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "rule\n");
}

describe("the Kilo Code rendering", () => {
  it("runs `kilo run -m <model>` with the prompt on stdin, unchanged for all", async () => {
    const { p } = await plan("all");
    expect([p.file, p.args, p.stdin, p.env, p.homeOverlay]).toEqual([
      "kilo",
      ["run", "-m", "witness/m"],
      "-go",
      {},
      undefined,
    ]);
  });

  it("none sets KILO_DISABLE_PROJECT_CONFIG and a KILO_CONFIG_DIR whose AGENTS.md is empty", async () => {
    const { p, repo } = await plan("none");
    expect(p.env).toEqual({ KILO_DISABLE_PROJECT_CONFIG: "1" });
    expect(p.homeOverlay).toEqual({
      variable: "KILO_CONFIG_DIR",
      source: join(repo.home, ".config", "kilo"),
      exclude: ["AGENTS.md"],
      empty: ["AGENTS.md"],
    });
  });

  it("workspace keeps the project and moves only the config dir; operator only drops the project", async () => {
    const workspace = (await plan("workspace")).p;
    expect([workspace.env, workspace.homeOverlay?.variable]).toEqual([{}, "KILO_CONFIG_DIR"]);
    const operator = (await plan("operator")).p;
    expect([operator.env, operator.homeOverlay]).toEqual([
      { KILO_DISABLE_PROJECT_CONFIG: "1" },
      undefined,
    ]);
  });

  it("refuses to cut the workspace while its .kilocoderules or .kilocode/rules would load anyway", async () => {
    const modeRules = [
      ".kilo/rules-architect/a.md",
      ".kilocode/rules-ask/a.md",
      ".kilocoderules-debug",
    ];
    for (const path of [".kilocoderules", ".kilocode/rules/a.md", ".kilo/rules/a.md", ...modeRules])
      await expect(plan("operator", (r) => put(join(r.root, path)))).rejects.toThrow(
        new RegExp(`refused \\(ambient-context-refused\\).*${path.split("/")[0]}`),
      );
    // Kept when the workspace is kept.
    await expect(plan("all", (r) => put(join(r.root, ".kilocoderules")))).resolves.toBeDefined();
  });

  it("refuses to cut the operator while HOME's ~/.kilocode/rules would load anyway", async () => {
    await expect(
      plan("workspace", (r) => put(join(r.home, ".kilocode", "rules", "a.md"))),
    ).rejects.toThrow(/refused \(ambient-context-refused\).*\.kilocode\/rules.*KILO_CONFIG_DIR/);
  });

  it("renders full access as run --auto, only under a granted full-access decision", async () => {
    const repo = tempWorkspace();
    const full: ParentAccess = {
      fullAccess: true,
      evidence: [{ source: "codex-rollout", detail: "danger-full-access", passed: true }],
    };
    const p = await planLaunch({
      node: { id: "n", adapter: "kilo", prompt: "go", model: "m", fullAccess: true },
      cwd: repo.root,
      env: { HOME: repo.home },
      projectConfig: {
        workflow: { workerFullAccess: { enabled: true, floors: { kilo: [{ model: "m" }] } } },
      },
      parentDetector: { detect: vi.fn(() => Promise.resolve(full)) },
    });
    expect(p.args).toEqual(["run", "-m", "m", "--auto"]);
    expect((await plan("all")).p.args).not.toContain("--auto");
  });
});

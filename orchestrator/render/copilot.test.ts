import { describe, expect, it, vi } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import type { ParentAccess } from "../parent-access/parent-access.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { AmbientContext, NodeSpec, ProjectConfig } from "../spec/schemas.js";

const consent: ProjectConfig = {
  workflow: {
    workerFullAccess: { enabled: true, floors: { copilot: [{ model: "m" }] } },
  },
};
const full: ParentAccess = {
  fullAccess: true,
  evidence: [{ source: "codex-rollout", detail: "danger-full-access", passed: true }],
};

function plan(value: AmbientContext, node: Partial<NodeSpec> = {}) {
  const repo = tempWorkspace();
  return planLaunch({
    node: {
      id: "n",
      adapter: "copilot",
      prompt: "-go",
      model: "m",
      ambientContext: value,
      ...node,
    },
    cwd: repo.root,
    env: { HOME: repo.home },
    projectConfig: consent,
    parentDetector: { detect: vi.fn(() => Promise.resolve(full)) },
  }).then((p) => ({ p, repo }));
}

describe("the GitHub Copilot CLI rendering", () => {
  it("puts the prompt on stdin, and none adds --no-custom-instructions", async () => {
    const { p } = await plan("none");
    expect([p.file, p.args, p.stdin]).toEqual([
      "copilot",
      ["--model", "m", "--no-custom-instructions"],
      "-go",
    ]);
    expect((await plan("all")).p.args).toEqual(["--model", "m"]);
  });

  it("workspace points COPILOT_HOME at a copy of ~/.copilot without its instruction files", async () => {
    const { p, repo } = await plan("workspace");
    expect(p.args).not.toContain("--no-custom-instructions");
    expect(p.homeOverlay).toEqual({
      variable: "COPILOT_HOME",
      source: `${repo.home}/.copilot`,
      exclude: ["copilot-instructions.md", "instructions"],
    });
  });

  it("operator is refused: its one switch turns off the workspace's files with the home's", async () => {
    await expect(plan("operator")).rejects.toThrow(/refused/);
  });

  it("renders full access as --yolo, and only when access is granted", async () => {
    const granted = await plan("all", { fullAccess: true });
    expect(granted.p.access.mode, granted.p.access.explanation).toBe("full-access");
    expect(granted.p.args).toContain("--yolo");
    expect((await plan("all")).p.args).not.toContain("--yolo");
  });
});

import { describe, expect, it, vi } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import type { ParentAccess } from "../parent-access/parent-access.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { NodeSpec, ProjectConfig } from "../spec/schemas.js";

const consent: ProjectConfig = {
  workflow: { workerFullAccess: { enabled: true, floors: { cline: [{ model: "m" }] } } },
};
const full: ParentAccess = {
  fullAccess: true,
  evidence: [{ source: "codex-rollout", detail: "danger-full-access", passed: true }],
};

function plan(node: Partial<NodeSpec> = {}) {
  const repo = tempWorkspace();
  return planLaunch({
    node: { id: "n", adapter: "cline", prompt: "-go", model: "m", ...node },
    cwd: repo.root,
    env: { HOME: repo.home },
    projectConfig: consent,
    parentDetector: { detect: vi.fn(() => Promise.resolve(full)) },
  });
}

describe("the Cline rendering", () => {
  it("puts the prompt after --, and a sandboxed launch turns auto-approval off", async () => {
    const p = await plan({ ambientContext: "all" });
    expect([p.file, p.args, p.stdin]).toEqual([
      "cline",
      ["-m", "m", "--auto-approve", "false", "--", "-go"],
      undefined,
    ]);
    expect(p.access.mode).toBe("sandboxed");
  });

  it("the default workspace value renders unchanged loading and says what still loads", async () => {
    const p = await plan();
    expect(p.args).toEqual(["-m", "m", "--auto-approve", "false", "--", "-go"]);
    expect(p.diagnostics.map((d) => d.code)).toContain("cline-rules-unswitchable");
  });

  it.each(["none", "workspace", "operator"] as const)(
    "an explicit %s is refused: no switch keeps a rule file out",
    async (value) => {
      await expect(plan({ ambientContext: value })).rejects.toThrow(/refused/);
    },
  );

  it("renders granted full access as its act mode with no flag (record 0047: a write outside the workspace ran)", async () => {
    const p = await plan({ ambientContext: "all", fullAccess: true });
    expect(p.access.mode, p.access.explanation).toBe("full-access");
    expect(p.args).toEqual(["-m", "m", "--", "-go"]);
  });
});

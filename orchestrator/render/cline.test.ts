import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { NodeSpec } from "../spec/schemas.js";

function plan(node: Partial<NodeSpec> = {}) {
  const repo = tempWorkspace();
  return planLaunch({
    node: { id: "n", adapter: "cline", prompt: "-go", model: "m", ...node },
    cwd: repo.root,
    env: { HOME: repo.home },
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
});

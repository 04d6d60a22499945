import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { runOptions } from "../policy/tool-policy.js";
import { disclosureFor } from "../render/disclosure.js";
import { checkWorkflow } from "../spec/load-workflow.js";
import type { WorkflowSpec } from "../spec/schemas.js";
import { plannedPolicies, planWorkflow, renderPlanScreen } from "./plan-workflow.js";

const workflow: WorkflowSpec = {
  name: "demo",
  defaults: { origin: "planned", ambientContext: "all" },
  nodes: [
    { id: "b", adapter: "codex", prompt: "fix", needs: ["a"], skills: ["lint"] },
    { id: "a", adapter: "claude-code", prompt: "scan", agent: "scanner" },
    {
      id: "c",
      adapter: "gemini",
      origin: "hand-written",
      prompt: "notes",
      ambientContext: "none",
    },
  ],
};

async function screen(accept: boolean) {
  const repo = tempWorkspace();
  const loaded = checkWorkflow(workflow, "demo.yaml");
  return planWorkflow({
    loaded,
    policies: plannedPolicies(loaded, runOptions({ acceptLoadedUserConfig: accept })),
    env: { HOME: repo.home },
    cwd: repo.root,
  });
}

describe("the plan screen", () => {
  it("lists nodes in dependency order with one slot per runtime and the refusal it foresees", async () => {
    const plan = await screen(false);
    expect(renderPlanScreen(plan).slice(0, 11)).toEqual([
      "Plan: demo (3 nodes)",
      "  1. a  claude-code  planned  needs: -",
      "     sandboxed (not-requested); ambient_context all (workflow)",
      "  2. b  codex  planned  needs: a",
      "     sandboxed (not-requested); ambient_context all (workflow)",
      "  3. c  gemini  hand-written  needs: -",
      "     refused (ambient-context-refused): ambient_context none (from node) on gemini is refused: Gemini CLI 0.61.0 loads the workspace's GEMINI.md in every headless run: context.fileName only adds names, and a headless run refuses an untrusted folder",
      "Disclosure",
      `  ${disclosureFor("claude-code", "isolated")}`,
      `  ${disclosureFor("codex", "isolated")}`,
      `  ${disclosureFor("gemini", "hand-written")}`,
    ]);
    expect(plan.deescalations).toEqual([]);
    expect(
      plan.diagnostics.filter((d) => d.severity === "error").map((d) => [d.nodeId, d.code]),
    ).toEqual([["c", "ambient-context-refused"]]);
  });

  it("prints the loaded sentences and the de-escalation reasons under the opt-in, and no isolated one", async () => {
    const lines = renderPlanScreen(await screen(true));
    expect(lines.slice(lines.indexOf("Disclosure"), lines.indexOf("Diagnostics"))).toEqual([
      "Disclosure",
      `  ${disclosureFor("claude-code", "loaded")}`,
      `  ${disclosureFor("codex", "loaded")}`,
      `  ${disclosureFor("gemini", "hand-written")}`,
      "De-escalations",
      "  agent mapping is off because this run loads your configuration (--accept-loaded-user-config): a same-named definition your settings discover would shadow the staged one",
      "  skill activation is off because this run loads your configuration (--accept-loaded-user-config): a same-named definition your settings discover would shadow the staged one",
    ]);
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { readState, type RunState, writeState } from "./state.js";

function state(policies: RunState["toolPolicies"]): RunState {
  return {
    version: 1,
    workflowFile: "/w.yaml",
    workflow: { nodes: [{ id: "a", adapter: "claude-code", origin: "planned", prompt: "go" }] },
    cwd: "/",
    run: {},
    toolPolicies: policies,
    nodes: { a: { status: "pending" } },
  };
}

describe("state.json keeps absent and explicitly empty isolation apart", () => {
  it.each([
    [
      "explicitly empty",
      { settingSources: "", allowedTools: [], strictMcpConfig: true, disallowedTools: [] },
      true,
    ],
    ["absent", { allowedTools: [], strictMcpConfig: false, disallowedTools: [] }, false],
  ])("round-trips an %s settingSources", async (_what, policy, present) => {
    const dir = join(tempWorkspace().base, "state");
    await writeState(dir, state({ a: policy }));
    const text = readFileSync(join(dir, "state.json"), "utf8");
    expect(text.includes('"settingSources": ""')).toBe(present);
    const read = await readState(dir);
    expect("settingSources" in (read.toolPolicies.a ?? {})).toBe(present);
    await writeState(dir, read);
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(text);
  });

  it("rejects a malformed state file with its path and field", async () => {
    const repo = tempWorkspace();
    repo.write("state/state.json", JSON.stringify({ ...state({}), version: 2 }));
    await expect(readState(join(repo.base, "state"))).rejects.toThrow(
      `${join(repo.base, "state", "state.json")}: version: `,
    );
  });
});

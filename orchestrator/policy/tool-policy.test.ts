import { describe, expect, it } from "vitest";

import type { NodeSpec } from "../spec/schemas.js";
import {
  applyDeescalations,
  carriesOperatorConfig,
  runOptions,
  runOptionsFromPolicies,
  toolPolicyFor,
} from "./tool-policy.js";

const nodes: NodeSpec[] = [
  {
    id: "scan",
    origin: "planned",
    allowedTools: ["Bash(git *)", "Read"],
    disallowedTools: ["WebFetch"],
  },
  { id: "narrow", origin: "planned", allowedTools: ["Read"], tools: ["Read", "Grep"] },
  { id: "bare", origin: "planned" },
];

describe("the planned-node ceiling (background.md#tp-opt-in)", () => {
  it.each(nodes)('isolates $id by default: settingSources is "" and strict MCP is on', (node) => {
    const policy = toolPolicyFor(node, runOptions());
    expect(policy.settingSources).toBe("");
    expect(policy.strictMcpConfig).toBe(true);
  });

  it.each(nodes)(
    "with the opt-in, drops layers 1 and 4 of $id and keeps 2, 3 and 5 byte-identical",
    (node) => {
      const isolated = toolPolicyFor(node, runOptions());
      const loaded = toolPolicyFor(node, runOptions({ acceptLoadedUserConfig: true }));
      expect("settingSources" in loaded).toBe(false);
      expect(loaded.strictMcpConfig).toBe(false);
      expect(JSON.stringify([loaded.allowedTools, loaded.tools, loaded.disallowedTools])).toBe(
        JSON.stringify([isolated.allowedTools, isolated.tools, isolated.disallowedTools]),
      );
    },
  );

  it("renders the whole policy of a node as the table says", () => {
    expect(toolPolicyFor(nodes[0] as NodeSpec, runOptions())).toEqual({
      settingSources: "",
      allowedTools: ["Bash(git *)", "Read"],
      tools: ["Bash", "Read"],
      strictMcpConfig: true,
      disallowedTools: ["WebFetch"],
    });
  });

  it("narrows to an explicitly empty tool set when the node grants nothing", () => {
    expect(toolPolicyFor({ id: "bare", origin: "planned" }, runOptions()).tools).toEqual([]);
  });
});

describe("--accept-loaded-user-config as an option", () => {
  it("turns agent mapping and skill activation off in the option itself, with a reason", () => {
    const options = runOptions({ acceptLoadedUserConfig: true });
    expect(options.agentMapping.enabled).toBe(false);
    expect(options.skillActivation.enabled).toBe(false);
    expect(options.agentMapping.reason).toBe(
      "agent mapping is off because this run loads your configuration (--accept-loaded-user-config): a same-named definition your settings discover would shadow the staged one",
    );
    expect(options.skillActivation.reason).toBe(
      "skill activation is off because this run loads your configuration (--accept-loaded-user-config): a same-named definition your settings discover would shadow the staged one",
    );
  });

  it("leaves agent mapping and skill activation on by default", () => {
    expect(runOptions()).toEqual({
      acceptLoadedUserConfig: false,
      agentMapping: { enabled: true },
      skillActivation: { enabled: true },
    });
  });

  it("leaves no agent, plugin dir or Skill on a planned node built with the option", () => {
    const node: NodeSpec = {
      id: "mapped",
      origin: "planned",
      agent: "reviewer",
      pluginDirs: ["/staged/plugins"],
      skills: ["lint"],
      allowedTools: ["Read"],
    };
    const options = runOptions({ acceptLoadedUserConfig: true });
    const deescalated = applyDeescalations(node, options);
    expect(deescalated).toEqual({ id: "mapped", origin: "planned", allowedTools: ["Read"] });
    expect(toolPolicyFor(deescalated, options).tools).toEqual(["Read"]);
    const isolated = toolPolicyFor(applyDeescalations(node, runOptions()), runOptions());
    expect(isolated.tools).toEqual(["Read", "Skill"]);
    expect(isolated.allowedTools).toEqual(["Read", "Skill(lint)"]);
  });
});

describe("the opt-in read back from recorded policies", () => {
  it.each([
    [
      { a: { settingSources: "", allowedTools: [], strictMcpConfig: true, disallowedTools: [] } },
      false,
    ],
    [{ a: { allowedTools: [], strictMcpConfig: false, disallowedTools: [] } }, true],
    [{}, false],
  ])("%j carries the operator's config: %s", (policies, loaded) => {
    expect(carriesOperatorConfig(Object.values(policies))).toBe(loaded);
    expect(runOptionsFromPolicies(policies).acceptLoadedUserConfig).toBe(loaded);
  });
});

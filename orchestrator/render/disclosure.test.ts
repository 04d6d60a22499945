import { describe, expect, it } from "vitest";

import { runOptions, type ToolPolicy, toolPolicyFor } from "../policy/tool-policy.js";
import { disclosureFor, disclosureSlots } from "./disclosure.js";

const CLAUDE_ISOLATED =
  'Claude Code, planned nodes: isolated. No user, project or local settings file loads (--setting-sources "") and no MCP server outside --mcp-config starts (--strict-mcp-config), so a declared scope such as Bash(git *) binds as written; the price is that your CLAUDE.md, hooks and MCP servers do not reach these nodes.';
const CLAUDE_LOADED =
  "Claude Code, planned nodes: your configuration loads (--accept-loaded-user-config). They load the setting sources their ambient_context asks for, and those settings bring their hooks, MCP servers and standing permission grants, so a declared scope such as Bash(git *) no longer stops a call the settings allow. Each node's --tools set and deny list still bind, managed policy is untouched, and agent mapping and skill activation are off for this run because a same-named definition your settings discover would shadow the staged one.";
const CODEX_ISOLATED =
  "Codex, planned nodes: isolated. Your config.toml, execpolicy rules, the repository's AGENTS.md files and your MCP servers are ignored (--ignore-user-config, --ignore-rules, project_doc_max_bytes=0, mcp_servers={}).";
const CODEX_LOADED =
  'Codex, planned nodes: your configuration loads (--accept-loaded-user-config): config.toml, execpolicy rules, MCP servers, and the AGENTS.md files their ambient_context allows. The --sandbox mode and approval_policy="never" stay on every node\'s argv, so this widens neither.';

const CLAUDE_HAND_WRITTEN =
  "Claude Code, hand-written nodes: no planned-node ceiling applies; each runs with its own allowedTools and the setting sources its ambient_context asks for. Under the default, workspace (--setting-sources project), that is the repository's settings, hooks and grants, not yours: your user settings, hooks, permission grants and CLAUDE.md load only with ambient_context operator or all.";
const CODEX_HAND_WRITTEN =
  "Codex, hand-written nodes: no planned-node ceiling applies; each runs with your own configuration (config.toml, execpolicy rules, MCP servers) and the AGENTS.md files its ambient_context allows, under its --sandbox mode.";

const isolated = toolPolicyFor({ id: "a", origin: "planned" }, runOptions());
const loaded = toolPolicyFor(
  { id: "a", origin: "planned" },
  runOptions({ acceptLoadedUserConfig: true }),
);

describe("the disclosure slot (background.md#tp-disclosure)", () => {
  it.each([
    ["claude-code", "off", [isolated], CLAUDE_ISOLATED],
    ["claude-code", "on", [loaded], CLAUDE_LOADED],
    ["codex", "off", [isolated], CODEX_ISOLATED],
    ["codex", "on", [loaded], CODEX_LOADED],
  ] as const)(
    "%s with the opt-in %s prints exactly one whole sentence",
    (adapter, _flag, policies, text) => {
      const slots = disclosureSlots(policies.map((policy: ToolPolicy) => ({ adapter, policy })));
      expect(slots).toEqual([{ adapter, text }]);
    },
  );

  it("never prints the isolated and the loaded sentence together", () => {
    for (const adapter of ["claude-code", "codex"] as const) {
      const on = disclosureFor(adapter, "loaded");
      const off = disclosureFor(adapter, "isolated");
      expect(on).not.toContain(off);
      expect(off).not.toContain(on);
      expect(on).not.toContain("isolated.");
    }
  });

  it("gives each runtime one slot, in the order the runtimes first appear", () => {
    const slots = disclosureSlots([
      { adapter: "codex", policy: isolated },
      { adapter: "claude-code", policy: isolated },
      { adapter: "codex", policy: isolated },
    ]);
    expect(slots).toEqual([
      { adapter: "codex", text: CODEX_ISOLATED },
      { adapter: "claude-code", text: CLAUDE_ISOLATED },
    ]);
  });

  it("says hand-written when a runtime has no planned node, as a whole sentence per runtime", () => {
    expect(
      disclosureSlots([
        { adapter: "codex", policy: undefined },
        { adapter: "claude-code", policy: undefined },
        { adapter: "opencode", policy: undefined },
      ]),
    ).toEqual([
      { adapter: "codex", text: CODEX_HAND_WRITTEN },
      { adapter: "claude-code", text: CLAUDE_HAND_WRITTEN },
      {
        adapter: "opencode",
        text: "opencode, hand-written nodes: each runs with your own configuration and its own allowedTools; no planned-node ceiling applies.",
      },
    ]);
  });

  it("never tells a hand-written Claude Code node's operator that their own configuration loads by default", () => {
    // Record 0010: the default ambient_context renders --setting-sources project, without the user source.
    expect(disclosureFor("claude-code", "hand-written")).not.toContain(
      "runs with your own configuration",
    );
  });
});

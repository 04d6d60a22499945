// The plan screen's disclosure: one slot per runtime, saying what its planned nodes load.
import { carriesOperatorConfig, type ToolPolicy } from "../policy/tool-policy.js";
import type { Adapter } from "../spec/schemas.js";

/** What a runtime's slot reports: planned nodes isolated, planned nodes loaded, or hand-written only. */
export type DisclosureState = "isolated" | "loaded" | "hand-written";

/** How the plan screen names each CLI. */
export const DISPLAY_NAMES: Readonly<Record<Adapter, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  opencode: "opencode",
  pi: "pi",
  cursor: "Cursor",
  gemini: "Gemini CLI",
  qwen: "Qwen Code",
  copilot: "GitHub Copilot CLI",
  cline: "Cline",
  kilo: "Kilo Code",
  kimi: "Kimi Code",
};

const CLAUDE: Readonly<Record<"isolated" | "loaded", string>> = {
  isolated:
    'Claude Code, planned nodes: isolated. No user, project or local settings file loads (--setting-sources "") and no MCP server outside --mcp-config starts (--strict-mcp-config), so a declared scope such as Bash(git *) binds as written; the price is that your CLAUDE.md, hooks and MCP servers do not reach these nodes.',
  loaded:
    "Claude Code, planned nodes: your configuration loads (--accept-loaded-user-config). They load the setting sources their ambient_context asks for, and those settings bring their hooks, MCP servers and standing permission grants, so a declared scope such as Bash(git *) no longer stops a call the settings allow. Each node's --tools set and deny list still bind, managed policy is untouched, and agent mapping and skill activation are off for this run because a same-named definition your settings discover would shadow the staged one.",
};

const CODEX: Readonly<Record<"isolated" | "loaded", string>> = {
  isolated:
    "Codex, planned nodes: isolated. Your config.toml, execpolicy rules, the repository's AGENTS.md files and your MCP servers are ignored (--ignore-user-config, --ignore-rules, project_doc_max_bytes=0, mcp_servers={}).",
  loaded:
    'Codex, planned nodes: your configuration loads (--accept-loaded-user-config): config.toml, execpolicy rules, MCP servers, and the AGENTS.md files their ambient_context allows. The --sandbox mode and approval_policy="never" stay on every node\'s argv, so this widens neither.',
};

// What is rendered decides the sentence: under the default ambient_context a hand-written Claude
// Code node gets --setting-sources project, so the operator's user settings stay out (record 0010).
const HAND_WRITTEN: Readonly<Partial<Record<Adapter, string>>> = {
  "claude-code":
    "Claude Code, hand-written nodes: no planned-node ceiling applies; each runs with its own allowedTools and the setting sources its ambient_context asks for. Under the default, workspace (--setting-sources project), that is the repository's settings, hooks and grants, not yours: your user settings, hooks, permission grants and CLAUDE.md load only with ambient_context operator or all.",
  codex:
    "Codex, hand-written nodes: no planned-node ceiling applies; each runs with your own configuration (config.toml, execpolicy rules, MCP servers) and the AGENTS.md files its ambient_context allows, under its --sandbox mode.",
};

const handWritten = (name: string): string =>
  `${name}, hand-written nodes: each runs with your own configuration and its own allowedTools; no planned-node ceiling applies.`;

/** The one sentence a runtime's slot prints in a given state. */
export function disclosureFor(adapter: Adapter, state: DisclosureState): string {
  const name = DISPLAY_NAMES[adapter];
  if (state === "hand-written") return HAND_WRITTEN[adapter] ?? handWritten(name);
  if (adapter === "claude-code") return CLAUDE[state];
  if (adapter === "codex") return CODEX[state];
  return state === "isolated"
    ? `${name}, planned nodes: refused, because ${name} has no rendering of the isolation ceiling.`
    : `${name}, planned nodes: your configuration loads (--accept-loaded-user-config); ${name} renders no isolation ceiling, so only what the node's own flags say applies.`;
}

/** The state of a runtime's slot, read from the policies about to be spawned (not from a flag). */
export function disclosureState(plannedPolicies: readonly ToolPolicy[]): DisclosureState {
  if (plannedPolicies.length === 0) return "hand-written";
  return carriesOperatorConfig(plannedPolicies) ? "loaded" : "isolated";
}

/** One slot per runtime, in order of first appearance. */
export function disclosureSlots(
  nodes: readonly { adapter: Adapter; policy: ToolPolicy | undefined }[],
): { adapter: Adapter; text: string }[] {
  const runtimes = [...new Set(nodes.map((node) => node.adapter))];
  return runtimes.map((adapter) => {
    const planned = nodes.flatMap((node) =>
      node.adapter === adapter && node.policy !== undefined ? [node.policy] : [],
    );
    return { adapter, text: disclosureFor(adapter, disclosureState(planned)) };
  });
}

// The five tool-policy layers of a planned node (docs/background.md#tool-policy), and the opt-in.
import { z } from "zod";

import type { NodeSpec } from "../spec/schemas.js";

/**
 * A planned node's execution ceiling. `settingSources` absent (undefined) and `""` are different
 * answers: absent means the operator's configuration loads, `""` means no setting source loads.
 */
export const toolPolicySchema = z.strictObject({
  /** Layer 1, isolation. Claude Code reads the value; Codex reads only its presence. */
  settingSources: z.string().optional(),
  /** Layer 2, grant. */
  allowedTools: z.array(z.string()),
  /** Layer 3, narrowing: the built-in tool set (absent: no narrowing). */
  tools: z.array(z.string()).optional(),
  /** Layer 4, strict MCP. */
  strictMcpConfig: z.boolean(),
  /** Layer 5, residual deny list. */
  disallowedTools: z.array(z.string()),
});
export type ToolPolicy = z.infer<typeof toolPolicySchema>;

/** The isolation value of layer 1: no user, project or local settings. */
export const ISOLATED_SETTING_SOURCES = "";

/** A de-escalation the run applies, with the reason printed where de-escalations print. */
export interface Switch {
  enabled: boolean;
  reason?: string;
}

/** The run-level options that shape planned nodes. */
export interface RunOptions {
  acceptLoadedUserConfig: boolean;
  agentMapping: Switch;
  skillActivation: Switch;
}

const SHADOW_REASON =
  "off because this run loads your configuration (--accept-loaded-user-config): a same-named definition your settings discover would shadow the staged one";

/**
 * Builds the run options. The opt-in turns agent mapping and skill activation off here, in the
 * option itself, so no call site can combine it with either.
 */
export function runOptions(input: { acceptLoadedUserConfig?: boolean } = {}): RunOptions {
  if (input.acceptLoadedUserConfig === true) {
    return {
      acceptLoadedUserConfig: true,
      agentMapping: { enabled: false, reason: `agent mapping is ${SHADOW_REASON}` },
      skillActivation: { enabled: false, reason: `skill activation is ${SHADOW_REASON}` },
    };
  }
  return {
    acceptLoadedUserConfig: false,
    agentMapping: { enabled: true },
    skillActivation: { enabled: true },
  };
}

/** The run options a recorded policy map implies: any planned node without isolation means opted in. */
export function runOptionsFromPolicies(policies: Readonly<Record<string, ToolPolicy>>): RunOptions {
  return runOptions({ acceptLoadedUserConfig: carriesOperatorConfig(Object.values(policies)) });
}

/** True when any planned policy loads the operator's configuration (layer 1 absent). */
export function carriesOperatorConfig(policies: readonly ToolPolicy[]): boolean {
  return policies.some((policy) => policy.settingSources === undefined);
}

/** A planned node with the run's de-escalations applied (agent, plugin dirs, skills dropped when off). */
export function applyDeescalations<N extends NodeSpec>(node: N, options: RunOptions): N {
  const out: N = { ...node };
  if (!options.agentMapping.enabled) {
    delete out.agent;
    delete out.pluginDirs;
  }
  if (!options.skillActivation.enabled) delete out.skills;
  return out;
}

/** The tool name a permission rule is about: `Bash(git *)` → `Bash`. */
export function toolName(rule: string): string {
  const paren = rule.indexOf("(");
  return (paren === -1 ? rule : rule.slice(0, paren)).trim();
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/**
 * A planned node's ceiling. Layers 2, 3 and 5 come from the node alone; layers 1 and 4 from the
 * run option alone, so the opt-in leaves 2, 3 and 5 byte-identical.
 */
export function toolPolicyFor(node: NodeSpec, options: RunOptions): ToolPolicy {
  const skills = node.skills ?? [];
  const allowedTools = unique([...(node.allowedTools ?? []), ...skills.map((s) => `Skill(${s})`)]);
  // Narrowing: the declared set, or the tools the grants name; a skill needs the Skill tool.
  const declared = node.tools ?? unique(allowedTools.map(toolName));
  const tools = unique([...declared, ...(skills.length > 0 ? ["Skill"] : [])]);
  const residual = {
    allowedTools,
    tools,
    strictMcpConfig: !options.acceptLoadedUserConfig,
    disallowedTools: unique(node.disallowedTools ?? []),
  };
  return options.acceptLoadedUserConfig
    ? residual
    : { settingSources: ISOLATED_SETTING_SOURCES, ...residual };
}

// What every per-adapter renderer receives, and what it returns.
import type { AccessDecision, HomeOverlay } from "../plan/launch-types.js";
import type { AmbientResolution } from "../policy/ambient-context.js";
import type { ToolPolicy } from "../policy/tool-policy.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import type { Adapter, Filesystem, NodeSpec } from "../spec/schemas.js";

/** A node ready to render: defaults merged, de-escalations applied, policy decided. */
export interface RenderInput {
  node: NodeSpec;
  adapter: Adapter;
  planned: boolean;
  prompt: string;
  /** The effective policy: a planned node's ceiling, or a hand-written node's own allowedTools. */
  policy: ToolPolicy;
  ambient: AmbientResolution;
  filesystem: Filesystem | undefined;
  access: AccessDecision;
  /** Git top level of `cwd`. */
  root: string;
  cwd: string;
  operatorHome: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

/** A renderer's answer: the argv as data, plus what it could not render. */
export interface Rendered {
  file: string;
  /** Never a prompt the CLI could read as an option: it follows `--`, or it goes on `stdin`. */
  args: string[];
  env: Record<string, string>;
  /** The prompt, when the CLI takes it on stdin rather than as an argument. */
  stdin?: string;
  homeOverlay?: HomeOverlay;
  diagnostics: Diagnostic[];
}

/** Node fields only Claude Code renders; every other adapter warns that they were not applied. */
export const TOOL_FIELDS = [
  "allowedTools",
  "tools",
  "disallowedTools",
  "agent",
  "pluginDirs",
  "skills",
] as const;

/** A warning that a declared field has no rendering on this adapter. */
export function notRendered(input: RenderInput, fields: readonly (keyof NodeSpec)[]): Diagnostic[] {
  return fields
    .filter((field) => {
      const value = input.node[field];
      return value !== undefined && !(Array.isArray(value) && value.length === 0);
    })
    .map((field) => ({
      severity: "warning" as const,
      code: "field-not-rendered",
      nodeId: input.node.id,
      message: `${field} has no rendering on ${input.adapter}; it is not applied`,
    }));
}

/** The warning for an explicit ambient_context value the isolation ceiling narrows. */
export function ceilingCut(input: RenderInput, what: string): Diagnostic {
  return {
    severity: "warning",
    code: "ambient-cut-by-ceiling",
    nodeId: input.node.id,
    message: `ambient_context ${input.ambient.value} (from ${input.ambient.source}) asks for ${what}, which the planned-node isolation ceiling does not load; pass --accept-loaded-user-config to lift the ceiling`,
  };
}

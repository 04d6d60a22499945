// A reference-orchestrator node as a probe launch: its rendered argv and the variables its policy adds.
import { join } from "node:path";

import { InputError } from "../../core/errors.js";
import { parseWith } from "../../core/read-input.js";
import { nodeSpecSchema } from "../../orchestrator/spec/schemas.js";
import type { Cell } from "../cell/cell.js";
import type { Launch, ProbeCliName } from "../contracts/probe-spec.js";

/** The rendered launch of a node: arguments after the binary, the policy's own variables, stdin. */
export interface NodeLaunch {
  args: string[];
  env: Record<string, string>;
  /** The prompt, for a CLI the orchestrator gives it to on stdin. */
  stdin?: string;
}

/**
 * Renders `launch.node` with the reference orchestrator as if the cell were the operator's machine:
 * cwd = the cell workspace, HOME/CODEX_HOME = the cell's, so the operator's real HOME is never read.
 */
export async function renderNodeLaunch(
  launch: Extract<Launch, { node: unknown }>,
  cli: ProbeCliName,
  cell: Cell,
  options: { dryRun?: boolean } = {},
): Promise<NodeLaunch> {
  const node = parseWith(nodeSpecSchema, launch.node, "launch.node");
  if (node.adapter !== undefined && node.adapter !== cli) {
    throw new InputError("launch.node", [
      { path: "adapter", message: `expected ${cli}, the CLI this probe runs` },
    ]);
  }
  const { planLaunch, materializeHomeOverlay } = await import("../../orchestrator/index.js");
  const plan = await planLaunch({
    node: { ...node, adapter: cli },
    cwd: cell.cwd,
    // A dry run's cell exists only on paper: its workspace is the repository root, as it would be.
    ...(options.dryRun === true ? { gitRoot: cell.workspace } : {}),
    operatorHome: cell.home,
    env: cell.env,
    run: { acceptLoadedUserConfig: launch.acceptLoadedUserConfig },
  });
  const env = { ...plan.env };
  if (plan.homeOverlay !== undefined) {
    const target = join(cell.root, "overlay", plan.homeOverlay.variable);
    if (options.dryRun !== true) await materializeHomeOverlay(plan.homeOverlay, target);
    env[plan.homeOverlay.variable] = target;
  }
  return { args: plan.args, env, ...(plan.stdin === undefined ? {} : { stdin: plan.stdin }) };
}

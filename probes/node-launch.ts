// A reference-orchestrator node as a probe launch: its rendered argv and the variables its policy adds.
import { UsageError } from "../orchestrator/errors.js";
import type { Cell } from "./cell.js";
import type { Launch, ProbeCliName } from "./probe-spec.js";

/** The rendered launch of a node: arguments after the binary, and the policy's own variables. */
export interface PlannedNode {
  args: string[];
  env: Record<string, string>;
}

/** Renders `launch.node` with the reference orchestrator, inside `cell` (its workspace and HOME). */
export function planNodeLaunch(
  launch: Extract<Launch, { node: unknown }>,
  cli: ProbeCliName,
  cell: Cell,
): Promise<PlannedNode> {
  void launch;
  void cell;
  return Promise.reject(
    new UsageError(
      `a node launch for ${cli} needs the reference orchestrator's planLaunch, which is not available yet; use raw argv`,
    ),
  );
}

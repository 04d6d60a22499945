// A node with its workflow's defaults merged in, and the fields a launch cannot do without.
import { ADAPTER_NAMES } from "../../clis/names.js";
import { InputError } from "../../core/errors.js";
import { effortScale } from "./effort-scale.js";
import type { Adapter, NodeSpec, WorkflowSpec } from "./schemas.js";

/** Where a node was written, for `file: path: expected` messages. */
export interface SpecSource {
  file: string;
  /** Dotted path of the node inside the file ("" for a node file, `nodes.2` in a workflow). */
  path: string;
}

/** A node after defaults: its adapter and prompt are known. */
export type ResolvedNode = NodeSpec & { adapter: Adapter; prompt: string };

/** Merges the workflow's defaults under the node's own fields; throws InputError for a missing adapter or prompt. */
export function resolveNode(
  node: NodeSpec,
  workflow: WorkflowSpec | undefined,
  source: SpecSource = { file: `node ${node.id}`, path: "" },
): ResolvedNode {
  const merged: NodeSpec = { ...(workflow?.defaults ?? {}), ...stripUndefined(node) };
  const at = (field: string): string => (source.path === "" ? field : `${source.path}.${field}`);
  const issues = [
    ...(merged.adapter === undefined
      ? [
          {
            path: at("adapter"),
            message: `expected one of ${ADAPTER_NAMES.join(", ")} (on the node or in the workflow's defaults)`,
          },
        ]
      : []),
    ...(merged.prompt === undefined || merged.prompt.trim() === ""
      ? [{ path: at("prompt"), message: "expected a non-empty prompt" }]
      : []),
  ];
  const scale = merged.adapter === undefined ? undefined : effortScale(merged.adapter);
  if (scale !== undefined && merged.effort !== undefined && !scale.includes(merged.effort))
    issues.push({
      path: at("effort"),
      message: `expected one of ${scale.join(", ")} (${merged.adapter ?? ""}'s effort scale)`,
    });
  if (issues.length > 0 || merged.adapter === undefined || merged.prompt === undefined)
    throw new InputError(source.file, issues);
  return { ...merged, adapter: merged.adapter, prompt: merged.prompt };
}

function stripUndefined(node: NodeSpec): NodeSpec {
  return Object.fromEntries(
    Object.entries(node).filter(([, value]) => value !== undefined),
  ) as NodeSpec;
}

// Reads a workflow file and checks what its schema cannot: dependency order, adapter and prompt per node.
import { readInput } from "../../core/read-input.js";
import { dependencyOrder } from "./dependency-order.js";
import { resolveNode, type SpecSource } from "./resolve-node.js";
import { type NodeSpec, nodeSpecSchema, type WorkflowSpec, workflowSpecSchema } from "./schemas.js";

/** A workflow checked as a whole, with its nodes in the order they run. */
export interface LoadedWorkflow {
  file: string;
  workflow: WorkflowSpec;
  order: string[];
}

/** Validates an already-parsed workflow; throws InputError naming `file`. */
export function checkWorkflow(workflow: WorkflowSpec, file: string): LoadedWorkflow {
  workflow.nodes.forEach((node, index) =>
    resolveNode(node, workflow, { file, path: `nodes.${index}` }),
  );
  return { file, workflow, order: dependencyOrder(workflow.nodes, file) };
}

/** Reads a workflow file (YAML or JSON) and checks it. */
export async function readWorkflow(file: string): Promise<LoadedWorkflow> {
  return checkWorkflow(await readInput(workflowSpecSchema, file), file);
}

/** Reads a single node file (YAML or JSON). */
export function readNode(file: string): Promise<NodeSpec> {
  return readInput(nodeSpecSchema, file);
}

/** Where node `id` sits in a workflow file. */
export function nodeSource(loaded: LoadedWorkflow, id: string): SpecSource {
  return {
    file: loaded.file,
    path: `nodes.${loaded.workflow.nodes.findIndex((node) => node.id === id)}`,
  };
}

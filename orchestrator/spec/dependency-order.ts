// Nodes in dependency order (`needs` first), stable in the order they were written.
import { InputError } from "../../core/errors.js";
import type { NodeSpec } from "./schemas.js";

/** The node ids, each after every node it needs; throws InputError naming `file` on a cycle. */
export function dependencyOrder(nodes: readonly NodeSpec[], file: string): string[] {
  const needs = new Map(nodes.map((node) => [node.id, node.needs ?? []]));
  const done = new Set<string>();
  const order: string[] = [];
  while (order.length < nodes.length) {
    const ready = nodes.find(
      (node) => !done.has(node.id) && (needs.get(node.id) ?? []).every((need) => done.has(need)),
    );
    if (ready === undefined) {
      const stuck = nodes.filter((node) => !done.has(node.id)).map((node) => node.id);
      throw new InputError(file, [
        {
          path: "nodes",
          message: `expected no dependency cycle; these nodes wait on each other: ${stuck.join(", ")}`,
        },
      ]);
    }
    done.add(ready.id);
    order.push(ready.id);
  }
  return order;
}

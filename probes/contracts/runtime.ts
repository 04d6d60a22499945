// The runtime a spawn ran its CLI on, as every observation and record states it.
import { z } from "zod";

/** A Node CLI's runtime: which node, where it came from, and why it was the one chosen. */
export const nodeRuntimeSchema = z.object({
  kind: z.literal("node"),
  /** The node binary that runs the CLI. */
  path: z.string(),
  /** Its version, without the `v`. */
  version: z.string(),
  /** `witness`: the Node running witness; `vendor-cache`: the registry's Node package, cached. */
  source: z.enum(["witness", "vendor-cache"]),
  /** The CLI's `engines.node` (null: it declares none). */
  declared: z.string().nullable(),
  /** The exact version the arm pinned (null: none; the declared range decided). */
  pinned: z.string().nullable(),
  /** Why this node, in a sentence. */
  why: z.string(),
  /** Its directory is first on the spawn's PATH: the agent's own shell runs this node too. */
  firstOnPath: z.boolean(),
});
export type NodeRuntime = z.infer<typeof nodeRuntimeSchema>;

/** The runtime of a spawn: a Node, or none (a native binary, a script that names no node). */
export const runtimeSchema = z.discriminatedUnion("kind", [
  nodeRuntimeSchema,
  z.object({ kind: z.literal("native"), why: z.string() }),
  z.object({ kind: z.literal("script"), why: z.string() }),
]);
export type Runtime = z.infer<typeof runtimeSchema>;

/** A pinned Node version: exact, as the registry's Node packages are published. */
export const nodePinSchema = z.strictObject({
  node: z
    .string()
    .regex(
      /^\d+\.\d+\.\d+$/,
      "expected an exact Node version like 22.23.5 (the runtime to run the CLI on)",
    ),
});
export type NodePin = z.infer<typeof nodePinSchema>;

/** The runtime in a line, as the Markdown record and `witness probe` print it. */
export function runtimeText(runtime: Runtime): string {
  if (runtime.kind !== "node") return `${runtime.kind} (${runtime.why})`;
  const path = runtime.firstOnPath ? "; first on the agent's PATH" : "";
  return `Node ${runtime.version} (${runtime.path}): ${runtime.why}${path}`;
}

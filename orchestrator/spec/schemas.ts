// Node, workflow and project-config specs: the shapes a person writes in YAML or JSON.
import { z } from "zod";

import { adapterSchema } from "../../clis/names.js";

/** The agent CLIs the reference orchestrator can render a launch for (the catalog's adapters). */
export { adapterSchema };
export type Adapter = z.infer<typeof adapterSchema>;

/** Which instruction files reach a node besides its prompt (docs/background.md#ambient-context). */
export const ambientContextSchema = z.enum(["none", "workspace", "operator", "all"], {
  error: "expected one of none, workspace, operator, all",
});
export type AmbientContext = z.infer<typeof ambientContextSchema>;

/** The filesystem policy projected into the vendor sandbox. */
export const filesystemSchema = z.enum(["read-only", "workspace-write"], {
  error: "expected read-only or workspace-write",
});
export type Filesystem = z.infer<typeof filesystemSchema>;

/** Who wrote the node: a planner (gets the tool-policy ceiling) or a person (its own allowedTools; the default). */
export const originSchema = z.enum(["planned", "hand-written"], {
  error: "expected planned or hand-written",
});
export type Origin = z.infer<typeof originSchema>;

const toolList = z.array(z.string().min(1, "expected a non-empty tool name"));
const nodeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "expected an id of letters, digits, '.', '_' or '-'");

/** Fields a node may set and a workflow may default. */
const nodeFields = {
  adapter: adapterSchema.optional(),
  origin: originSchema.optional(),
  model: z.string().min(1, "expected a model id").optional(),
  effort: z.string().min(1, "expected an effort level").optional(),
  allowedTools: toolList.optional(),
  tools: toolList.optional(),
  disallowedTools: toolList.optional(),
  agent: z.string().min(1, "expected an agent name").optional(),
  pluginDirs: z.array(z.string().min(1)).optional(),
  skills: z.array(z.string().min(1)).optional(),
  filesystem: filesystemSchema.optional(),
  fullAccess: z.boolean().optional(),
  ambientContext: ambientContextSchema.optional(),
};

/** One agent launch as written: every field but `id` may come from the workflow's defaults. */
export const nodeSpecSchema = z.strictObject({
  id: nodeIdSchema,
  ...nodeFields,
  // A NUL cannot reach a CLI's argv: refused when the workflow is read, before any state exists.
  prompt: z
    .string()
    .refine((p) => !p.includes("\0"), "expected a prompt without NUL")
    .optional(),
  needs: z.array(nodeIdSchema).optional(),
});
export type NodeSpec = z.infer<typeof nodeSpecSchema>;

/** Workflow-level defaults for the node fields. */
export const nodeDefaultsSchema = z.strictObject(nodeFields);
export type NodeDefaults = z.infer<typeof nodeDefaultsSchema>;

/**
 * Run overrides a workflow file may carry. `--accept-loaded-user-config` is deliberately not here:
 * a planner writes workflows, and the opt-in must be typed by the operator at launch.
 */
export const runOverridesSchema = z.strictObject({
  ambientContext: ambientContextSchema.optional(),
});
export type RunOverrides = z.infer<typeof runOverridesSchema>;

/** A workflow: defaults, nodes (ordered by `needs`) and run overrides. */
export const workflowSpecSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    defaults: nodeDefaultsSchema.optional(),
    nodes: z.array(nodeSpecSchema).min(1, "expected at least one node"),
    run: runOverridesSchema.optional(),
  })
  .superRefine((workflow, ctx) => {
    const ids = new Set<string>();
    workflow.nodes.forEach((node, index) => {
      if (ids.has(node.id))
        ctx.addIssue({
          code: "custom",
          path: ["nodes", index, "id"],
          message: "expected a unique id",
        });
      ids.add(node.id);
    });
    workflow.nodes.forEach((node, index) => {
      (node.needs ?? []).forEach((need, n) => {
        if (!ids.has(need))
          ctx.addIssue({
            code: "custom",
            path: ["nodes", index, "needs", n],
            message: `expected the id of a node in this workflow, got "${need}"`,
          });
      });
    });
  });
export type WorkflowSpec = z.infer<typeof workflowSpecSchema>;

/**
 * The project's own config file. `workflow.workerFullAccess` is kept unparsed here: a malformed
 * setting disables full access as a whole (docs/background.md#fa-consent) instead of failing the file.
 */
export const projectConfigSchema = z.looseObject({
  workflow: z.looseObject({ workerFullAccess: z.unknown().optional() }).optional(),
});
export type ProjectConfig = z.infer<typeof projectConfigSchema>;

// The project config file, and its workflow.workerFullAccess setting (docs/background.md#fa-consent).
import { z } from "zod";

import { readInput } from "../../core/read-input.js";
import { effortScale } from "./effort-scale.js";
import { adapterSchema, type ProjectConfig, projectConfigSchema } from "./schemas.js";

/** Reads and validates a project config file (YAML or JSON). */
export function readProjectConfig(file: string): Promise<ProjectConfig> {
  return readInput(projectConfigSchema, file);
}

const floorSchema = z.strictObject({
  model: z.string().min(1),
  minEffort: z.string().min(1).optional(),
});

/** workflow.workerFullAccess: an enabled switch and per-adapter model floors. */
export const workerFullAccessSchema = z.strictObject({
  enabled: z.boolean(),
  floors: z.partialRecord(adapterSchema, z.array(floorSchema)).default({}),
});
export type WorkerFullAccess = z.infer<typeof workerFullAccessSchema>;

/** The setting as the engine sees it: absent, malformed as a whole, or valid. */
export type WorkerFullAccessSetting =
  | { status: "absent" }
  | { status: "malformed"; problems: string[] }
  | { status: "valid"; setting: WorkerFullAccess };

/** Parses the setting; any malformed part makes the whole setting malformed (it then disables). */
export function parseWorkerFullAccess(config: ProjectConfig | undefined): WorkerFullAccessSetting {
  const raw = config?.workflow?.workerFullAccess;
  if (raw === undefined) return { status: "absent" };
  const result = workerFullAccessSchema.safeParse(raw);
  if (!result.success)
    return {
      status: "malformed",
      problems: result.error.issues.map(
        (issue) =>
          `workflow.workerFullAccess.${issue.path.map(String).join(".")}: ${issue.message}`,
      ),
    };
  const problems: string[] = [];
  for (const [adapter, floors] of Object.entries(result.data.floors)) {
    const scale = effortScale(adapterSchema.parse(adapter));
    floors.forEach((floor, index) => {
      const at = `workflow.workerFullAccess.floors.${adapter}.${index}.minEffort`;
      if (scale === undefined && floor.minEffort !== undefined)
        problems.push(`${at}: ${adapter} declares no effort scale; list exact model ids only`);
      if (scale !== undefined && floor.minEffort === undefined)
        problems.push(`${at}: expected one of ${scale.join(", ")}`);
      if (scale !== undefined && floor.minEffort !== undefined && !scale.includes(floor.minEffort))
        problems.push(`${at}: expected one of ${scale.join(", ")}, got "${floor.minEffort}"`);
    });
  }
  return problems.length > 0
    ? { status: "malformed", problems }
    : { status: "valid", setting: result.data };
}

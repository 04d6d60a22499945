import { dirname, isAbsolute, resolve } from "node:path";

import { readInput } from "../core/read-input.js";
import { type BehaviourInput, type OutcomeInput, planFileSchema } from "./shim-spec.js";

function resolved(path: string | undefined, base: string): string | undefined {
  return path === undefined || isAbsolute(path) ? path : resolve(base, path);
}

/** Reads a YAML/JSON plan file into a plan behaviour; output files resolve beside the plan. */
export async function readCallPlanFile(
  file: string,
  options: { cwd?: string } = {},
): Promise<BehaviourInput> {
  const path = resolve(options.cwd ?? process.cwd(), file);
  const plan = await readInput(planFileSchema, path);
  const base = dirname(path);
  const calls: OutcomeInput[] = plan.calls.map((call) => {
    const out: OutcomeInput = { ...call };
    const stdoutFile = resolved(call.stdoutFile, base);
    const stderrFile = resolved(call.stderrFile, base);
    if (stdoutFile !== undefined) out.stdoutFile = stdoutFile;
    if (stderrFile !== undefined) out.stderrFile = stderrFile;
    return out;
  });
  return { kind: "plan", calls };
}

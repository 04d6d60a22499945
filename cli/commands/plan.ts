import type { CommandModule } from "yargs";

import { handled } from "../exit.js";
import {
  type RunPolicyArgs,
  runPolicyOptions,
  withRunPolicyOptions,
} from "../run-policy-options.js";

interface PlanArgs extends RunPolicyArgs {
  workflow: string;
  json: boolean;
}

/** `witness plan`: the plan screen of a workflow; exit 2 when any node is refused. */
export const planCommand: CommandModule<object, PlanArgs> = {
  command: "plan",
  describe: "Print a workflow's plan screen: each node's access, the disclosure, diagnostics",
  builder: (y) =>
    withRunPolicyOptions(y)
      .option("workflow", {
        type: "string",
        demandOption: true,
        describe: "workflow (YAML or JSON)",
      })
      .option("json", { type: "boolean", default: false, describe: "print the plan as JSON" }),
  handler: handled(async (args: PlanArgs) => {
    const { planWorkflowFile } = await import("../../orchestrator/plan/describe-launch.js");
    const { renderPlanScreen } = await import("../../orchestrator/plan/plan-workflow.js");
    const plan = await planWorkflowFile({
      workflowFile: args.workflow,
      ...runPolicyOptions(args),
    });
    process.stdout.write(
      args.json ? `${JSON.stringify(plan, null, 2)}\n` : `${renderPlanScreen(plan).join("\n")}\n`,
    );
    const refused = plan.nodes.filter((node) => node.refusal !== undefined);
    for (const node of refused)
      process.stderr.write(`witness: node ${node.id} ${node.refusal?.message ?? "refused"}\n`);
    return refused.length > 0 ? 2 : 0;
  }),
};

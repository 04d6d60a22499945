import type { CommandModule } from "yargs";

import { handled } from "../exit.js";
import {
  type RunPolicyArgs,
  runPolicyOptions,
  withRunPolicyOptions,
} from "../run-policy-options.js";

interface ArgvArgs extends RunPolicyArgs {
  node: string;
  workflow?: string;
  json: boolean;
}

/** `witness argv`: print the launch plan the reference orchestrator renders for one node. */
export const argvCommand: CommandModule<object, ArgvArgs> = {
  command: "argv",
  describe: "Print the launch plan (file, args, env, access, disclosure) for one node spec",
  builder: (y) =>
    withRunPolicyOptions(y)
      .option("node", { type: "string", demandOption: true, describe: "node spec (YAML or JSON)" })
      .option("workflow", { type: "string", describe: "workflow whose defaults the node takes" })
      .option("json", { type: "boolean", default: false, describe: "print the plan as JSON" }),
  handler: handled(async (args: ArgvArgs) => {
    const { argvForNode, launchPlanJson, launchPlanLines } =
      await import("../../orchestrator/plan/describe-launch.js");
    const { createParentAccessDetector } =
      await import("../../orchestrator/parent-access/detect.js");
    const plan = await argvForNode({
      nodeFile: args.node,
      ...(args.workflow === undefined ? {} : { workflowFile: args.workflow }),
      ...runPolicyOptions(args),
      parentDetector: createParentAccessDetector(),
    });
    const out = args.json
      ? `${JSON.stringify(launchPlanJson(plan), null, 2)}\n`
      : `${launchPlanLines(plan).join("\n")}\n`;
    process.stdout.write(out);
  }),
};

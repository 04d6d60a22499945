import type { CommandModule } from "yargs";
import { handled } from "../exit.js";

interface ArgvArgs {
  node: string;
  workflow?: string;
  "project-config"?: string;
  "accept-loaded-user-config": boolean;
  "ambient-context"?: string;
  json: boolean;
}

/** `witness argv`: print the launch plan the reference orchestrator renders for one node. */
export const argvCommand: CommandModule<object, ArgvArgs> = {
  command: "argv",
  describe: "Print the launch plan (file, args, env, access, disclosure) for one node spec",
  builder: (y) =>
    y
      .option("node", { type: "string", demandOption: true, describe: "node spec (YAML or JSON)" })
      .option("workflow", { type: "string", describe: "workflow whose defaults the node takes" })
      .option("project-config", {
        type: "string",
        describe: "project config (the only source of worker full-access consent)",
      })
      .option("accept-loaded-user-config", {
        type: "boolean",
        default: false,
        describe:
          "planned nodes load your CLI configuration: isolation and strict MCP off, agent mapping and skill activation off",
      })
      .option("ambient-context", {
        type: "string",
        describe: "run override: none | workspace | operator | all",
      })
      .option("json", { type: "boolean", default: false, describe: "print the plan as JSON" }),
  handler: handled(async (args: ArgvArgs) => {
    const { argvForNode, launchPlanJson, launchPlanLines } =
      await import("../../orchestrator/describe-launch.js");
    const { createParentAccessDetector } = await import("../../probes/parent-access.js");
    const plan = await argvForNode({
      nodeFile: args.node,
      ...(args.workflow === undefined ? {} : { workflowFile: args.workflow }),
      ...(args["project-config"] === undefined
        ? {}
        : { projectConfigFile: args["project-config"] }),
      acceptLoadedUserConfig: args["accept-loaded-user-config"],
      ...(args["ambient-context"] === undefined ? {} : { ambientContext: args["ambient-context"] }),
      parentDetector: createParentAccessDetector(),
    });
    const out = args.json
      ? `${JSON.stringify(launchPlanJson(plan), null, 2)}\n`
      : `${launchPlanLines(plan).join("\n")}\n`;
    process.stdout.write(out);
  }),
};

import type { Argv } from "yargs";

/** The run-level policy flags shared by `argv`, `plan` and `orchestrate run`. */
export interface RunPolicyArgs {
  "project-config"?: string;
  "accept-loaded-user-config": boolean;
  "ambient-context"?: string;
}

/** Declares the run-level policy flags on a command. */
export function withRunPolicyOptions<T>(y: Argv<T>): Argv<T & RunPolicyArgs> {
  return y
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
    });
}

/** Maps the flags to the orchestrator's option names, leaving unset ones out. */
export function runPolicyOptions(args: RunPolicyArgs): {
  projectConfigFile?: string;
  acceptLoadedUserConfig: boolean;
  ambientContext?: string;
} {
  return {
    ...(args["project-config"] === undefined ? {} : { projectConfigFile: args["project-config"] }),
    acceptLoadedUserConfig: args["accept-loaded-user-config"],
    ...(args["ambient-context"] === undefined ? {} : { ambientContext: args["ambient-context"] }),
  };
}

import type { Argv, CommandModule } from "yargs";

import { handled } from "../exit.js";
import {
  type RunPolicyArgs,
  runPolicyOptions,
  withRunPolicyOptions,
} from "../run-policy-options.js";

interface RunArgs extends RunPolicyArgs {
  workflow: string;
  state: string;
  "timeout-ms"?: number;
}
interface ResumeArgs {
  dir: string;
  "timeout-ms"?: number;
}

function report(summary: {
  status: string;
  refusals: { nodeId: string; code: string; message: string }[];
  nodes: Record<string, { status: string }>;
}): number {
  for (const [id, node] of Object.entries(summary.nodes))
    process.stderr.write(`witness: ${id}: ${node.status}\n`);
  for (const r of summary.refusals) process.stderr.write(`witness: ${r.nodeId}: ${r.message}\n`);
  return summary.status === "refused" ? 2 : summary.status === "failed" ? 1 : 0;
}

const runCommand: CommandModule<object, RunArgs> = {
  command: "run <workflow>",
  describe: "Run a workflow's nodes in dependency order; state.json and events.jsonl go to --state",
  builder: (y) =>
    withRunPolicyOptions(y)
      .positional("workflow", {
        type: "string",
        demandOption: true,
        describe: "workflow (YAML or JSON)",
      })
      .option("state", { type: "string", demandOption: true, describe: "state directory (new)" })
      .option("timeout-ms", { type: "number", describe: "per-node timeout" }),
  handler: handled(async (args: RunArgs) => {
    const { runWorkflow } = await import("../../orchestrator/run/run-workflow.js");
    const { createParentAccessDetector } =
      await import("../../orchestrator/parent-access/detect.js");
    const summary = await runWorkflow({
      workflowFile: args.workflow,
      stateDir: args.state,
      ...runPolicyOptions(args),
      ...(args["timeout-ms"] === undefined ? {} : { timeoutMs: args["timeout-ms"] }),
      parentDetector: createParentAccessDetector(),
      print: (line) => process.stdout.write(`${line}\n`),
    });
    return report(summary);
  }),
};

// Resume takes no option that could widen what the first leg chose: the recorded policies rule.
const resumeCommand: CommandModule<object, ResumeArgs> = {
  command: "resume <dir>",
  describe: "Continue a run from its state directory with the policies it recorded",
  builder: (y) =>
    y
      .positional("dir", { type: "string", demandOption: true, describe: "state directory" })
      .option("timeout-ms", { type: "number", describe: "per-node timeout" }),
  handler: handled(async (args: ResumeArgs) => {
    const { resumeWorkflow } = await import("../../orchestrator/run/run-workflow.js");
    const { createParentAccessDetector } =
      await import("../../orchestrator/parent-access/detect.js");
    const summary = await resumeWorkflow({
      stateDir: args.dir,
      ...(args["timeout-ms"] === undefined ? {} : { timeoutMs: args["timeout-ms"] }),
      parentDetector: createParentAccessDetector(),
      print: (line) => process.stdout.write(`${line}\n`),
    });
    return report(summary);
  }),
};

/** `witness orchestrate run|resume`. */
export const orchestrateCommand: CommandModule = {
  command: "orchestrate <command>",
  describe: "Run a workflow through the reference orchestrator, or resume one",
  builder: (y: Argv) =>
    y.command(runCommand).command(resumeCommand).demandCommand(1, "Name run or resume."),
  handler: () => undefined,
};

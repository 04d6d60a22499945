import type { Argv, CommandModule } from "yargs";

import type { RunSummary } from "../../orchestrator/run/run-workflow.js";
import { printJson, timeoutMs, withJson, withTimeout } from "../common-options.js";
import { handled } from "../exit.js";
import { GROUP_NEEDS_COMMAND } from "../parse-errors.js";
import {
  type RunPolicyArgs,
  runPolicyOptions,
  withRunPolicyOptions,
} from "../run-policy-options.js";

interface RunArgs extends RunPolicyArgs {
  workflow: string;
  state: string;
  timeout: number | undefined;
  json: boolean;
}
interface ResumeArgs {
  dir: string;
  timeout: number | undefined;
  json: boolean;
}

/** One line per node that did not succeed, with why (the ENOENT, the exit code and stderr). */
export function nodeLines(summary: RunSummary): string[] {
  return Object.entries(summary.nodes).map(([id, node]) =>
    node.reason === undefined ? `${id}: ${node.status}` : `${id}: ${node.status} (${node.reason})`,
  );
}

function report(summary: RunSummary, json: boolean): number {
  if (json) printJson(summary);
  for (const line of nodeLines(summary)) process.stderr.write(`witness: ${line}\n`);
  for (const r of summary.refusals) process.stderr.write(`witness: ${r.nodeId}: ${r.message}\n`);
  return summary.status === "refused" ? 2 : summary.status === "failed" ? 1 : 0;
}

// Under --json the plan screen goes to stderr: stdout holds the summary alone.
const printer = (json: boolean) => (line: string) =>
  (json ? process.stderr : process.stdout).write(`${line}\n`);

const runCommand: CommandModule<object, RunArgs> = {
  command: "run <workflow>",
  describe: "Run a workflow's nodes in dependency order; state.json and events.jsonl go to --state",
  builder: (y) =>
    withJson(
      withTimeout(
        withRunPolicyOptions(y)
          .positional("workflow", {
            type: "string",
            demandOption: true,
            describe: "workflow (YAML or JSON)",
          })
          .option("state", {
            type: "string",
            demandOption: true,
            describe: "state directory (new)",
          }),
        "how long each node may run",
      ),
      "the run's summary {status, nodes, refusals}",
    ),
  handler: handled(async (args: RunArgs) => {
    const { runWorkflow } = await import("../../orchestrator/run/run-workflow.js");
    const { createParentAccessDetector } =
      await import("../../orchestrator/parent-access/detect.js");
    const ms = timeoutMs(args.timeout);
    const summary = await runWorkflow({
      workflowFile: args.workflow,
      stateDir: args.state,
      ...runPolicyOptions(args),
      ...(ms === undefined ? {} : { timeoutMs: ms }),
      parentDetector: createParentAccessDetector(),
      print: printer(args.json),
    });
    return report(summary, args.json);
  }),
};

// Resume takes no option that could widen what the first leg chose: the recorded policies rule.
const resumeCommand: CommandModule<object, ResumeArgs> = {
  command: "resume <dir>",
  describe: "Continue a run from its state directory with the policies it recorded",
  builder: (y) =>
    withJson(
      withTimeout(
        y.positional("dir", { type: "string", demandOption: true, describe: "state directory" }),
        "how long each node may run",
      ),
      "the run's summary {status, nodes, refusals}",
    ),
  handler: handled(async (args: ResumeArgs) => {
    const { resumeWorkflow } = await import("../../orchestrator/run/run-workflow.js");
    const { createParentAccessDetector } =
      await import("../../orchestrator/parent-access/detect.js");
    const ms = timeoutMs(args.timeout);
    const summary = await resumeWorkflow({
      stateDir: args.dir,
      ...(ms === undefined ? {} : { timeoutMs: ms }),
      parentDetector: createParentAccessDetector(),
      print: printer(args.json),
    });
    return report(summary, args.json);
  }),
};

/** `witness orchestrate run|resume`. */
export const orchestrateCommand: CommandModule = {
  command: "orchestrate",
  describe: "Run a workflow through the reference orchestrator, or resume one",
  builder: (y: Argv) =>
    y
      .command(runCommand as CommandModule)
      .command(resumeCommand as CommandModule)
      .demandCommand(1, GROUP_NEEDS_COMMAND),
  handler: () => undefined,
};

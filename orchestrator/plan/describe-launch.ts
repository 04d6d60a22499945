// `witness argv` and `witness plan` as functions: read the spec files, plan, and lay out the result.
import { redactEnv } from "../../core/child-env.js";
import type { ParentAccessDetector } from "../parent-access/parent-access.js";
import { runOptions } from "../policy/tool-policy.js";
import { readNode, readWorkflow } from "../spec/load-workflow.js";
import { readProjectConfig } from "../spec/project-config.js";
import type { HomeOverlay, LaunchPlan } from "./launch-types.js";
import { planLaunch } from "./plan-launch.js";
import { plannedPolicies, planWorkflow, type WorkflowPlan } from "./plan-workflow.js";

/** Options of `witness argv`. */
export interface ArgvForNodeOptions {
  nodeFile: string;
  workflowFile?: string;
  projectConfigFile?: string;
  acceptLoadedUserConfig?: boolean;
  ambientContext?: string;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  parentDetector?: ParentAccessDetector;
}

/** Reads a node (and optionally its workflow and the project config) and plans its launch. */
export async function argvForNode(options: ArgvForNodeOptions): Promise<LaunchPlan> {
  const env = options.env ?? process.env;
  const node = await readNode(options.nodeFile);
  const loaded =
    options.workflowFile === undefined ? undefined : await readWorkflow(options.workflowFile);
  const projectConfig =
    options.projectConfigFile === undefined
      ? undefined
      : await readProjectConfig(options.projectConfigFile);
  return planLaunch({
    node,
    ...(loaded === undefined ? {} : { workflow: loaded.workflow }),
    ...(projectConfig === undefined ? {} : { projectConfig }),
    run: {
      acceptLoadedUserConfig: options.acceptLoadedUserConfig === true,
      ...(options.ambientContext === undefined ? {} : { ambientContext: options.ambientContext }),
    },
    env,
    cwd: options.cwd ?? process.cwd(),
    ...(env.HOME === undefined ? {} : { operatorHome: env.HOME }),
    ...(options.parentDetector === undefined ? {} : { parentDetector: options.parentDetector }),
    source: { file: options.nodeFile, path: "" },
  });
}

/** A launch plan as JSON-ready data, with secret-named variables redacted. */
export function launchPlanJson(plan: LaunchPlan): LaunchPlan {
  return { ...plan, env: redactEnv(plan.env) };
}

/** One line saying what a home overlay mirrors, what it leaves out and what it writes empty. */
export function overlayLine(overlay: HomeOverlay): string {
  const empty = overlay.empty ?? [];
  const without = overlay.exclude.filter((name) => !empty.includes(name));
  const into = overlay.mirrorInto === undefined ? "" : `/${overlay.mirrorInto}`;
  return [
    `home overlay: ${overlay.variable}${into} mirrors ${overlay.source}`,
    ...(without.length === 0 ? [] : [`without ${without.join(", ")}`]),
    ...(empty.length === 0 ? [] : [`with an empty ${empty.join(", ")}`]),
  ].join(" ");
}

/** A launch plan as lines for a person: one argument per line, JSON-quoted so nothing hides. */
export function launchPlanLines(plan: LaunchPlan): string[] {
  const env = Object.entries(redactEnv(plan.env));
  return [
    `node: ${plan.nodeId} (${plan.adapter})`,
    `file: ${plan.file}`,
    "args:",
    ...plan.args.map((arg) => `  ${JSON.stringify(arg)}`),
    ...(plan.stdin === undefined ? [] : [`stdin: ${JSON.stringify(plan.stdin)}`]),
    `env:${env.length === 0 ? " (none added)" : ""}`,
    ...env.map(([name, value]) => `  ${name}=${value}`),
    ...(plan.homeOverlay === undefined ? [] : [overlayLine(plan.homeOverlay)]),
    `access: ${plan.access.mode} (${plan.access.reason}): ${plan.access.explanation}`,
    `ambient_context: ${plan.ambient.value} (${plan.ambient.source})`,
    "disclosure:",
    `  ${plan.disclosure}`,
    `diagnostics:${plan.diagnostics.length === 0 ? " (none)" : ""}`,
    ...plan.diagnostics.map((d) => `  ${d.severity} ${d.code}: ${d.message}`),
  ];
}

/** Options of `witness plan`. */
export interface PlanWorkflowFileOptions {
  workflowFile: string;
  projectConfigFile?: string;
  acceptLoadedUserConfig?: boolean;
  ambientContext?: string;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Reads a workflow and builds its plan screen. */
export async function planWorkflowFile(options: PlanWorkflowFileOptions): Promise<WorkflowPlan> {
  const env = options.env ?? process.env;
  const loaded = await readWorkflow(options.workflowFile);
  const projectConfig =
    options.projectConfigFile === undefined
      ? undefined
      : await readProjectConfig(options.projectConfigFile);
  return planWorkflow({
    loaded,
    policies: plannedPolicies(
      loaded,
      runOptions({ acceptLoadedUserConfig: options.acceptLoadedUserConfig === true }),
    ),
    projectConfig,
    ambientContext: options.ambientContext,
    env,
    cwd: options.cwd ?? process.cwd(),
    operatorHome: env.HOME,
  });
}

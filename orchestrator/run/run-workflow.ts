// `witness orchestrate`: run a workflow's nodes in dependency order through the one exec seam.
import { existsSync } from "node:fs";
import { resolve } from "node:path";

import { canonicalHash } from "../../core/canonical.js";
import { RefusalError, UsageError } from "../../core/errors.js";
import { newRunContext, type ParentAccessDetector } from "../parent-access/parent-access.js";
import { planLaunch } from "../plan/plan-launch.js";
import { plannedPolicies, planWorkflow, renderPlanScreen } from "../plan/plan-workflow.js";
import { checkAmbient } from "../policy/ambient-context.js";
import { runOptions } from "../policy/tool-policy.js";
import {
  checkWorkflow,
  type LoadedWorkflow,
  nodeSource,
  readWorkflow,
} from "../spec/load-workflow.js";
import { readProjectConfig } from "../spec/project-config.js";
import type { ProjectConfig } from "../spec/schemas.js";
import { EventLog, eventsPath } from "./events.js";
import { spawnNode } from "./spawn-node.js";
import { type NodeState, readState, type RunState, statePath, writeState } from "./state.js";

/** What both `run` and `resume` share: where the children's environment and evidence come from. */
export interface LaunchContextOptions {
  /** The parent environment children are built from (allow-listed); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The operator's HOME, for the Codex overlay source; default env.HOME. */
  operatorHome?: string;
  parentDetector?: ParentAccessDetector;
  /** Per-node timeout. */
  timeoutMs?: number;
  /** Where the plan screen's lines go (the CLI prints them). */
  print?: (line: string) => void;
}

/** `witness orchestrate run <workflow> --state <dir>`. */
export interface RunWorkflowOptions extends LaunchContextOptions {
  workflowFile: string;
  stateDir: string;
  cwd?: string;
  projectConfigFile?: string;
  acceptLoadedUserConfig?: boolean;
  ambientContext?: string;
}

/** `witness orchestrate resume <dir>`: no option here can widen what the first leg chose. */
export interface ResumeWorkflowOptions extends LaunchContextOptions {
  stateDir: string;
}

/** How a run ended. */
export interface RunSummary {
  status: "succeeded" | "failed" | "refused";
  nodes: Record<string, NodeState>;
  refusals: { nodeId: string; code: string; message: string }[];
}

/** Starts a run: records every planned node's policy, prints the plan screen, then runs the nodes. */
export async function runWorkflow(options: RunWorkflowOptions): Promise<RunSummary> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const stateDir = resolve(cwd, options.stateDir);
  if (existsSync(statePath(stateDir)))
    throw new UsageError(
      `${stateDir} already holds a run; continue it with \`witness orchestrate resume ${stateDir}\``,
    );
  const workflowFile = resolve(cwd, options.workflowFile);
  const loaded = await readWorkflow(workflowFile);
  const projectConfigFile =
    options.projectConfigFile === undefined ? undefined : resolve(cwd, options.projectConfigFile);
  const projectConfig =
    projectConfigFile === undefined ? undefined : await readProjectConfig(projectConfigFile);
  const state: RunState = {
    version: 1,
    workflowFile,
    workflow: loaded.workflow,
    ...(projectConfigFile === undefined ? {} : { projectConfigFile }),
    cwd,
    run:
      options.ambientContext === undefined
        ? {}
        : { ambientContext: checkAmbient(options.ambientContext, "--ambient-context") },
    toolPolicies: plannedPolicies(
      loaded,
      runOptions({ acceptLoadedUserConfig: options.acceptLoadedUserConfig === true }),
    ),
    nodes: Object.fromEntries(loaded.order.map((id) => [id, { status: "pending" as const }])),
  };
  return execute(state, stateDir, loaded, projectConfig, options, false);
}

/** Continues a run from its state.json: the recorded policies are used verbatim. */
export async function resumeWorkflow(options: ResumeWorkflowOptions): Promise<RunSummary> {
  const stateDir = resolve(options.stateDir);
  const state = await readState(stateDir);
  const loaded = await recordedWorkflow(state, stateDir);
  const projectConfig =
    state.projectConfigFile === undefined
      ? undefined
      : await readProjectConfig(state.projectConfigFile);
  for (const id of loaded.order) {
    const node = state.nodes[id];
    if (node?.status !== "succeeded") state.nodes[id] = { status: "pending" };
  }
  return execute(state, stateDir, loaded, projectConfig, options, true);
}

// A workflow recorded with secrets redacted is re-read from its file, which must be unchanged.
async function recordedWorkflow(state: RunState, stateDir: string): Promise<LoadedWorkflow> {
  if (state.workflowHash === undefined) return checkWorkflow(state.workflow, statePath(stateDir));
  const loaded = await readWorkflow(state.workflowFile);
  if (canonicalHash(loaded.workflow) !== state.workflowHash)
    throw new UsageError(
      `${state.workflowFile}: changed since the run started, and ${statePath(stateDir)} holds it with secrets redacted; start a new run`,
    );
  state.workflow = loaded.workflow;
  return loaded;
}

async function execute(
  state: RunState,
  stateDir: string,
  loaded: LoadedWorkflow,
  projectConfig: ProjectConfig | undefined,
  options: LaunchContextOptions,
  resumed: boolean,
): Promise<RunSummary> {
  const env = options.env ?? process.env;
  const operatorHome = options.operatorHome ?? env.HOME;
  // An ambient value the run was started with is a run override, as recorded.
  const ambientContext = state.run.ambientContext;
  const screen = await planWorkflow({
    loaded,
    policies: state.toolPolicies,
    projectConfig,
    ambientContext,
    env,
    cwd: state.cwd,
    operatorHome,
  });
  for (const line of renderPlanScreen(screen)) options.print?.(line);
  await writeState(stateDir, state);
  const log = new EventLog(eventsPath(stateDir));
  await log.append({ type: "run.start", workflow: state.workflowFile, resumed });
  const runContext = newRunContext();
  const refusals: RunSummary["refusals"] = [];
  for (const id of loaded.order) {
    const current = state.nodes[id];
    if (current?.status === "succeeded") continue;
    const node = loaded.workflow.nodes.find((candidate) => candidate.id === id);
    if (node === undefined) continue;
    const blocked = (node.needs ?? []).find((need) => state.nodes[need]?.status !== "succeeded");
    if (blocked !== undefined) {
      const reason = `needs ${blocked}, which did not succeed`;
      state.nodes[id] = { status: "skipped", reason };
      await log.append({ type: "agent.skipped", nodeId: id, reason });
      await writeState(stateDir, state);
      continue;
    }
    const policy = state.toolPolicies[id];
    let plan;
    try {
      plan = await planLaunch({
        node,
        workflow: loaded.workflow,
        projectConfig,
        run: ambientContext === undefined ? {} : { ambientContext },
        env,
        cwd: state.cwd,
        ...(operatorHome === undefined ? {} : { operatorHome }),
        ...(options.parentDetector === undefined ? {} : { parentDetector: options.parentDetector }),
        runContext,
        ...(policy === undefined ? {} : { inheritedPolicy: policy }),
        source: nodeSource(loaded, id),
      });
    } catch (error) {
      if (!(error instanceof RefusalError)) throw error;
      refusals.push({ nodeId: id, code: error.code, message: error.message });
      state.nodes[id] = { status: "refused", reason: error.code };
      await log.append({
        type: "agent.refused",
        nodeId: id,
        code: error.code,
        message: error.message,
      });
      await writeState(stateDir, state);
      continue;
    }
    state.nodes[id] = await spawnNode(plan, {
      stateDir,
      cwd: state.cwd,
      env,
      log,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      onStart: async (running) => {
        state.nodes[id] = running;
        await writeState(stateDir, state);
      },
    });
    await writeState(stateDir, state);
  }
  const statuses = Object.values(state.nodes).map((node) => node.status);
  const status =
    refusals.length > 0
      ? "refused"
      : statuses.every((s) => s === "succeeded")
        ? "succeeded"
        : "failed";
  await log.append({ type: "run.end", status });
  return { status, nodes: state.nodes, refusals };
}

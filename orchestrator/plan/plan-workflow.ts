// The plan screen: every node's launch planned up front, one disclosure slot per runtime.
import { RefusalError } from "../../core/errors.js";
import { newRunContext } from "../parent-access/parent-access.js";
import {
  applyDeescalations,
  type RunOptions,
  runOptionsFromPolicies,
  type ToolPolicy,
  toolPolicyFor,
} from "../policy/tool-policy.js";
import { disclosureSlots } from "../render/disclosure.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import { type LoadedWorkflow, nodeSource } from "../spec/load-workflow.js";
import { resolveNode } from "../spec/resolve-node.js";
import type { Adapter, ProjectConfig } from "../spec/schemas.js";
import type { LaunchPlan } from "./launch-types.js";
import { planLaunch } from "./plan-launch.js";

/** The tool policy of every planned node of a workflow, keyed by node id (hand-written nodes have none). */
export function plannedPolicies(
  loaded: LoadedWorkflow,
  options: RunOptions,
): Record<string, ToolPolicy> {
  const policies: Record<string, ToolPolicy> = {};
  for (const node of loaded.workflow.nodes) {
    const resolved = resolveNode(node, loaded.workflow, nodeSource(loaded, node.id));
    if (resolved.origin === "planned")
      policies[node.id] = toolPolicyFor(applyDeescalations(resolved, options), options);
  }
  return policies;
}

/** One node on the plan screen: its launch, or the refusal that stops it. */
export interface WorkflowPlanNode {
  id: string;
  adapter: Adapter;
  origin: "planned" | "hand-written";
  needs: string[];
  plan?: LaunchPlan;
  refusal?: { code: string; message: string };
}

/** The whole plan screen as data. */
export interface WorkflowPlan {
  title: string;
  nodes: WorkflowPlanNode[];
  disclosure: { adapter: Adapter; text: string }[];
  /** Reasons for the run's de-escalations (agent mapping, skill activation). */
  deescalations: string[];
  diagnostics: Diagnostic[];
}

/** What the plan screen needs; `policies` are the recorded ones when resuming. */
export interface PlanWorkflowOptions {
  loaded: LoadedWorkflow;
  policies: Record<string, ToolPolicy>;
  projectConfig?: ProjectConfig | undefined;
  ambientContext?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  operatorHome?: string | undefined;
}

/** Plans every node (the parent is not probed here: that happens at launch) and fills the slots. */
export async function planWorkflow(options: PlanWorkflowOptions): Promise<WorkflowPlan> {
  const { loaded, policies } = options;
  const runContext = newRunContext();
  const nodes: WorkflowPlanNode[] = [];
  for (const id of loaded.order) {
    const source = nodeSource(loaded, id);
    const node = loaded.workflow.nodes.find((candidate) => candidate.id === id);
    if (node === undefined) continue;
    const resolved = resolveNode(node, loaded.workflow, source);
    const entry: WorkflowPlanNode = {
      id,
      adapter: resolved.adapter,
      origin: resolved.origin ?? "hand-written",
      needs: node.needs ?? [],
    };
    try {
      entry.plan = await planLaunch({
        node,
        workflow: loaded.workflow,
        projectConfig: options.projectConfig,
        run: options.ambientContext === undefined ? {} : { ambientContext: options.ambientContext },
        env: options.env,
        cwd: options.cwd,
        ...(options.operatorHome === undefined ? {} : { operatorHome: options.operatorHome }),
        runContext,
        ...(policies[id] === undefined ? {} : { inheritedPolicy: policies[id] }),
        source,
      });
    } catch (error) {
      if (!(error instanceof RefusalError)) throw error;
      entry.refusal = { code: error.code, message: error.message };
    }
    nodes.push(entry);
  }
  const run = runOptionsFromPolicies(policies);
  const hasPlanned = Object.keys(policies).length > 0;
  return {
    title: loaded.workflow.name ?? loaded.file,
    nodes,
    disclosure: disclosureSlots(nodes.map((n) => ({ adapter: n.adapter, policy: policies[n.id] }))),
    deescalations:
      hasPlanned && run.acceptLoadedUserConfig
        ? [run.agentMapping.reason ?? "", run.skillActivation.reason ?? ""]
        : [],
    diagnostics: nodes.flatMap((n) => [
      ...(n.plan?.diagnostics ?? []),
      ...(n.refusal === undefined
        ? []
        : [
            {
              severity: "error" as const,
              code: n.refusal.code,
              nodeId: n.id,
              message: n.refusal.message,
            },
          ]),
    ]),
  };
}

/** The plan screen as lines: nodes, the disclosure slots, de-escalations, diagnostics. */
export function renderPlanScreen(plan: WorkflowPlan): string[] {
  const lines = [
    `Plan: ${plan.title} (${plan.nodes.length} node${plan.nodes.length === 1 ? "" : "s"})`,
  ];
  plan.nodes.forEach((node, index) => {
    const needs = node.needs.length === 0 ? "-" : node.needs.join(", ");
    lines.push(`  ${index + 1}. ${node.id}  ${node.adapter}  ${node.origin}  needs: ${needs}`);
    if (node.refusal !== undefined) lines.push(`     ${node.refusal.message}`);
    else if (node.plan !== undefined) {
      const { access, ambient } = node.plan;
      lines.push(
        `     ${access.mode} (${access.reason}); ambient_context ${ambient.value} (${ambient.source})`,
      );
    }
  });
  lines.push("Disclosure");
  for (const slot of plan.disclosure) lines.push(`  ${slot.text}`);
  if (plan.deescalations.length > 0) {
    lines.push("De-escalations");
    for (const reason of plan.deescalations) lines.push(`  ${reason}`);
  }
  if (plan.diagnostics.length > 0) {
    lines.push("Diagnostics");
    for (const d of plan.diagnostics)
      lines.push(
        `  ${d.severity} ${d.code}${d.nodeId === undefined ? "" : ` [${d.nodeId}]`}: ${d.message}`,
      );
  }
  return lines;
}

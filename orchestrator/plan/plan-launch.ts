// planLaunch: one node → the argv, env and access decision to launch it, as data. Never spawns.
import { RefusalError } from "../../core/errors.js";
import { newRunContext } from "../parent-access/parent-access.js";
import { resolveAmbient } from "../policy/ambient-context.js";
import { ambientDiagnostics } from "../policy/ambient-diagnostics.js";
import { decideAccess } from "../policy/full-access.js";
import { gitRoot } from "../policy/git-root.js";
import {
  applyDeescalations,
  runOptions,
  type ToolPolicy,
  toolPolicyFor,
} from "../policy/tool-policy.js";
import { renderClaude } from "../render/claude-code.js";
import { renderCline } from "../render/cline.js";
import { renderCodex } from "../render/codex.js";
import { renderCopilot } from "../render/copilot.js";
import { disclosureFor } from "../render/disclosure.js";
import { renderGemini, renderQwen } from "../render/gemini-qwen.js";
import { renderKilo } from "../render/kilo.js";
import { renderKimi } from "../render/kimi.js";
import { renderOpencode } from "../render/opencode.js";
import { renderCursor } from "../render/others.js";
import { renderPi } from "../render/pi.js";
import type { Rendered, RenderInput } from "../render/render-input.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import { resolveNode, type SpecSource } from "../spec/resolve-node.js";
import type { Adapter } from "../spec/schemas.js";
import type { LaunchPlan, PlanLaunchInput } from "./launch-types.js";

/** Adapters that can render layer 1; a planned node under the ceiling anywhere else is refused. */
export const ISOLATING_ADAPTERS: readonly Adapter[] = ["claude-code", "codex"];

// One renderer per adapter: a catalog row with an adapter and no renderer does not compile.
const RENDERERS: Readonly<Record<Adapter, (input: RenderInput) => Rendered>> = {
  "claude-code": renderClaude,
  codex: renderCodex,
  opencode: renderOpencode,
  pi: renderPi,
  cursor: renderCursor,
  gemini: renderGemini,
  qwen: renderQwen,
  copilot: renderCopilot,
  cline: renderCline,
  kilo: renderKilo,
  kimi: renderKimi,
};

function render(input: RenderInput): Rendered {
  return RENDERERS[input.adapter](input);
}

/** Plans one launch; throws RefusalError (with a code) or InputError, and never spawns. */
export async function planLaunch(
  input: PlanLaunchInput & { source?: SpecSource },
): Promise<LaunchPlan> {
  const env = input.env ?? {};
  const resolved = resolveNode(input.node, input.workflow, input.source);
  const planned = (resolved.origin ?? "hand-written") === "planned";
  // A resumed run's recorded policy decides the option, so resume can never widen it.
  const accept =
    input.inheritedPolicy === undefined
      ? input.run?.acceptLoadedUserConfig === true
      : input.inheritedPolicy.settingSources === undefined;
  const options = runOptions({ acceptLoadedUserConfig: accept });
  const node = planned ? applyDeescalations(resolved, options) : resolved;
  const diagnostics: Diagnostic[] = [];
  if (planned && accept && (resolved.agent !== undefined || (resolved.pluginDirs ?? []).length > 0))
    diagnostics.push({
      severity: "info",
      code: "agent-mapping-off",
      nodeId: node.id,
      message: options.agentMapping.reason ?? "",
    });
  if (planned && accept && (resolved.skills ?? []).length > 0)
    diagnostics.push({
      severity: "info",
      code: "skill-activation-off",
      nodeId: node.id,
      message: options.skillActivation.reason ?? "",
    });
  if (!planned && (node.tools !== undefined || node.disallowedTools !== undefined))
    diagnostics.push({
      severity: "warning",
      code: "hand-written-policy",
      nodeId: node.id,
      message:
        "a hand-written node's policy is its allowedTools alone; tools and disallowedTools apply to planned nodes",
    });
  const toolPolicy: ToolPolicy | undefined = planned
    ? (input.inheritedPolicy ?? toolPolicyFor(node, options))
    : undefined;
  const policy = toolPolicy ?? {
    allowedTools: node.allowedTools ?? [],
    strictMcpConfig: false,
    disallowedTools: [],
  };
  if (toolPolicy?.settingSources !== undefined && !ISOLATING_ADAPTERS.includes(node.adapter))
    throw new RefusalError(
      "isolation-unsupported",
      `planned node ${node.id} runs under the isolation ceiling, and ${node.adapter} has no rendering of it`,
    );

  const ambient = resolveAmbient({
    run: input.run?.ambientContext ?? input.workflow?.run?.ambientContext,
    node: input.node,
    workflow: input.workflow,
    env,
  });
  const ambientFindings = ambientDiagnostics(node.id, node.adapter, ambient);
  const refused = ambientFindings.find((finding) => finding.severity === "error");
  if (refused !== undefined) throw new RefusalError(refused.code, refused.message);
  diagnostics.push(...ambientFindings);

  const { access, parentCheck } = await decideAccess({
    node,
    adapter: node.adapter,
    nodeFilesystem: input.node.filesystem,
    filesystem: node.filesystem,
    projectConfig: input.projectConfig,
    env,
    parentDetector: input.parentDetector,
    runContext: input.runContext ?? newRunContext(),
  });
  const rendered = render({
    node,
    adapter: node.adapter,
    planned,
    prompt: node.prompt,
    policy,
    ambient,
    filesystem: access.mode === "full-access" ? undefined : node.filesystem,
    access,
    root: input.gitRoot ?? gitRoot(input.cwd),
    cwd: input.cwd,
    operatorHome: input.operatorHome,
    env,
  });
  const plan: LaunchPlan = {
    nodeId: node.id,
    adapter: node.adapter,
    file: rendered.file,
    args: rendered.args,
    env: rendered.env,
    disclosure: disclosureFor(
      node.adapter,
      planned ? (policy.settingSources === undefined ? "loaded" : "isolated") : "hand-written",
    ),
    diagnostics: [...diagnostics, ...rendered.diagnostics],
    access,
    ambient,
  };
  if (rendered.homeOverlay !== undefined) plan.homeOverlay = rendered.homeOverlay;
  if (rendered.stdin !== undefined) plan.stdin = rendered.stdin;
  if (toolPolicy !== undefined) plan.toolPolicy = toolPolicy;
  if (parentCheck !== undefined) plan.parentCheck = parentCheck;
  return plan;
}

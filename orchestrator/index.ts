// The reference orchestrator's public API (`witness/orchestrator`).
export type { AmbientContext, Adapter, NodeSpec, ProjectConfig, WorkflowSpec } from "./spec.js";
export {
  adapterSchema,
  ambientContextSchema,
  filesystemSchema,
  nodeSpecSchema,
  originSchema,
  projectConfigSchema,
  workflowSpecSchema,
} from "./spec.js";
export type { Diagnostic } from "./diagnostics.js";
export type {
  ParentAccess,
  ParentAccessDetector,
  ParentEvidence,
  RunContext,
} from "./parent-access.js";
export { newRunContext } from "./parent-access.js";
export type { AccessDecision, HomeOverlay, LaunchPlan, PlanLaunchInput } from "./launch-plan.js";
export { planLaunch } from "./plan-launch.js";
export { materializeHomeOverlay } from "./home-overlay.js";
export type { ToolPolicy } from "./tool-policy.js";
export { runOptions, toolPolicyFor, toolPolicySchema } from "./tool-policy.js";
export { AMBIENT_ENV, resolveAmbient } from "./ambient-context.js";
export { AMBIENT_SUPPORT, supportOf } from "./ambient-support.js";
export type { SupportCell } from "./ambient-support.js";
export { FULL_ACCESS_DISABLE_ENV, decideAccess } from "./full-access.js";
export { disclosureFor, disclosureSlots } from "./disclosure.js";
export { readProjectConfig, parseWorkerFullAccess } from "./project-config.js";

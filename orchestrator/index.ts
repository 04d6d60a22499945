// The reference orchestrator's public API (`witness/orchestrator`).
export type { DetectParentAccessOptions } from "./parent-access/detect.js";
export { createParentAccessDetector, detectParentAccess } from "./parent-access/detect.js";
export type {
  ParentAccess,
  ParentAccessDetector,
  ParentEvidence,
  RunContext,
} from "./parent-access/parent-access.js";
export { newRunContext } from "./parent-access/parent-access.js";
export type {
  AccessDecision,
  HomeOverlay,
  LaunchPlan,
  PlanLaunchInput,
} from "./plan/launch-types.js";
export { planLaunch } from "./plan/plan-launch.js";
export { AMBIENT_ENV, resolveAmbient } from "./policy/ambient-context.js";
export type { SupportCell } from "./policy/ambient-support.js";
export { AMBIENT_SUPPORT, supportOf } from "./policy/ambient-support.js";
export { decideAccess, FULL_ACCESS_DISABLE_ENV } from "./policy/full-access.js";
export type { ToolPolicy } from "./policy/tool-policy.js";
export { runOptions, toolPolicyFor, toolPolicySchema } from "./policy/tool-policy.js";
export { disclosureFor, disclosureSlots } from "./render/disclosure.js";
export { materializeHomeOverlay } from "./run/home-overlay.js";
export type { ResumeWorkflowOptions, RunSummary, RunWorkflowOptions } from "./run/run-workflow.js";
export { resumeWorkflow, runWorkflow } from "./run/run-workflow.js";
export type { Diagnostic } from "./spec/diagnostics.js";
export { parseWorkerFullAccess, readProjectConfig } from "./spec/project-config.js";
export type {
  Adapter,
  AmbientContext,
  NodeSpec,
  ProjectConfig,
  WorkflowSpec,
} from "./spec/schemas.js";
export {
  adapterSchema,
  ambientContextSchema,
  filesystemSchema,
  nodeSpecSchema,
  originSchema,
  projectConfigSchema,
  workflowSpecSchema,
} from "./spec/schemas.js";

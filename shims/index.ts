// Public API of witness/shims: install argv-recording shims, read their log, check it.
export {
  checkSpawned,
  differences,
  sideBySide,
  unmetPlans,
  type SpawnCheck,
  type SpawnExpectation,
} from "./assertions.js";
export {
  installShims,
  type InstalledShim,
  type InstalledShims,
  type InstallShimsOptions,
} from "./install.js";
export { STATE_DIR_NAME } from "./state-dir.js";
export { SHIM_LOG_VERSION, shimRecordSchema, type ShimRecord } from "./log-schema.js";
export {
  parseShimLog,
  readShimLog,
  readShimLogSync,
  type ShimLog,
  type ShimLogProblem,
} from "./read-log.js";
export {
  BEYOND_PLAN_EXIT_CODE,
  DEFAULT_ENV_PATTERNS,
  LOG_FAILURE_EXIT_CODE,
  behaviourSchema,
  outcomeSchema,
  planFileSchema,
  type Behaviour,
  type BehaviourInput,
  type Outcome,
  type OutcomeInput,
  type PlanFile,
  type StdinMode,
} from "./shim-spec.js";

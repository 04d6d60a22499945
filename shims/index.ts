// Public API of witness/shims: install argv-recording shims, read their log, check it.
export {
  checkSpawned,
  differences,
  sideBySide,
  type SpawnCheck,
  type SpawnExpectation,
  unmetPlans,
} from "./assertions.js";
export {
  type InstalledShim,
  type InstalledShims,
  installShims,
  type InstallShimsOptions,
} from "./install.js";
export { SHIM_LOG_VERSION, type ShimRecord, shimRecordSchema } from "./log-schema.js";
export {
  parseShimLog,
  readShimLog,
  readShimLogSync,
  type ShimLog,
  type ShimLogProblem,
} from "./read-log.js";
export {
  type Behaviour,
  type BehaviourInput,
  behaviourSchema,
  BEYOND_PLAN_EXIT_CODE,
  DEFAULT_ENV_PATTERNS,
  LOG_FAILURE_EXIT_CODE,
  type Outcome,
  type OutcomeInput,
  outcomeSchema,
  type PlanFile,
  planFileSchema,
  type StdinMode,
} from "./shim-spec.js";
export { STATE_DIR_NAME } from "./state-dir.js";

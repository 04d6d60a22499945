// The launch plan: what to spawn, as data. Planners build it; only run-workflow.ts spawns it.
import type {
  ParentAccess,
  ParentAccessDetector,
  RunContext,
} from "../parent-access/parent-access.js";
import type { AmbientResolution } from "../policy/ambient-context.js";
import type { ToolPolicy } from "../policy/tool-policy.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import type { Adapter, NodeSpec, ProjectConfig, WorkflowSpec } from "../spec/schemas.js";

/** Whether a worker keeps its vendor sandbox, and why (docs/background.md#fa-record). */
export interface AccessDecision {
  mode: "sandboxed" | "full-access";
  /** A stable reason code, e.g. `granted`, `consent-absent`, `model-not-listed`. */
  reason: string;
  explanation: string;
}

/** A per-run home directory mirroring the operator's by symlink, minus some entries. */
export interface HomeOverlay {
  /** The variable the launcher points at the materialized directory, e.g. `CODEX_HOME`. */
  variable: string;
  /** The operator's directory being mirrored. */
  source: string;
  /** Entry names left out of the mirror. */
  exclude: string[];
  /** Entry names written as empty files in the mirror (opencode's AGENTS.md: an empty one shadows a fallback). */
  empty?: string[];
  /**
   * Where in the materialized directory the mirror goes (GEMINI_CLI_HOME names a home whose
   * `.gemini` is the mirror); the directory itself when absent.
   */
  mirrorInto?: string;
}

/** Everything planLaunch needs to render one node. */
export interface PlanLaunchInput {
  node: NodeSpec;
  workflow?: WorkflowSpec;
  projectConfig?: ProjectConfig;
  /** The operator's user-global config: never consulted for worker full access (docs/background.md#fa-consent). */
  userConfig?: ProjectConfig;
  run?: { acceptLoadedUserConfig?: boolean; ambientContext?: string };
  /** Read for WITNESS_AMBIENT_CONTEXT, WITNESS_WORKER_FULL_ACCESS and HOME / CODEX_HOME. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The node's working directory; the git root is resolved from it. */
  cwd: string;
  /** The git root, when the caller knows it without a disk to look at (a dry run's cell). */
  gitRoot?: string;
  /** The operator's HOME, for the Codex overlay source (defaults to env.HOME). */
  operatorHome?: string;
  parentDetector?: ParentAccessDetector;
  /** Per-run state (the parent probe cache); a fresh one per call when absent. */
  runContext?: RunContext;
  /** A planned node's recorded policy (resume): used verbatim instead of recomputing it. */
  inheritedPolicy?: ToolPolicy;
}

/** One node's launch, ready for the exec seam. */
export interface LaunchPlan {
  nodeId: string;
  adapter: Adapter;
  /** The binary name: "claude", "codex", "cursor-agent", "pi", ... */
  file: string;
  /** The complete argv after the binary: the prompt after `--`, unless it goes on `stdin`. */
  args: string[];
  /** The prompt, for a CLI that takes it on stdin (pi, opencode, Gemini CLI, Qwen Code). */
  stdin?: string;
  /** Only the variables the policy itself adds (never secrets). */
  env: Record<string, string>;
  /** A per-run home mirror (CODEX_HOME, GEMINI_CLI_HOME, OPENCODE_CONFIG_DIR), materialized by the launcher. */
  homeOverlay?: HomeOverlay;
  /** The plan-screen sentence for this node's runtime slot. */
  disclosure: string;
  diagnostics: Diagnostic[];
  access: AccessDecision;
  /** A planned node's tool policy (absent for a hand-written node). */
  toolPolicy?: ToolPolicy;
  /** The effective ambient_context and where it came from. */
  ambient: AmbientResolution;
  /** Set on the launch that ran the run's parent probe: its evidence, for `worker_access.parent`. */
  parentCheck?: ParentAccess;
}

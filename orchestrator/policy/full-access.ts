// Worker full access (docs/background.md#full-access): host consent, model floor, parent evidence; cheap checks first.
import { RefusalError } from "../../core/errors.js";
import type {
  ParentAccess,
  ParentAccessDetector,
  RunContext,
} from "../parent-access/parent-access.js";
import type { AccessDecision } from "../plan/launch-types.js";
import { effortScale } from "../spec/effort-scale.js";
import { parseWorkerFullAccess } from "../spec/project-config.js";
import type { Adapter, Filesystem, NodeSpec, ProjectConfig } from "../spec/schemas.js";

/** The variable that can switch worker full access off for one process (never on). */
export const FULL_ACCESS_DISABLE_ENV = "WITNESS_WORKER_FULL_ACCESS";
const DISABLING_VALUES = new Set(["0", "false", "off", "no"]);

/** How each adapter renders full access; an adapter absent here refuses a full-access request. */
export const FULL_ACCESS_RENDERINGS: Readonly<Partial<Record<Adapter, string>>> = {
  codex: "--sandbox danger-full-access",
  "claude-code": `--permission-mode bypassPermissions, with {"sandbox":{"enabled":false}} merged into --settings`,
  cursor: "--sandbox disabled",
  // Record 0033 (arm tools-yolo): a write outside the workspace ran, where --allow-all-tools denied it.
  copilot: "--yolo (tools, paths and URLs allowed)",
  // Record 0047 (arm tools-default): with no flag a write outside the workspace ran. --yolo would
  // too, but a yolo run ends only at a submit_and_exit call, which a worker's model may never make.
  cline: "no flag: its act mode auto-approves every tool, outside the workspace too",
  // Record 0050 (arm tools-auto): a write outside the workspace ran, where no flag auto-rejected it.
  kilo: "run --auto (every ask approved that no rule denies)",
};

/** What the access decision reads. `filesystem` is the effective policy; `nodeFilesystem` the node's own. */
export interface AccessInput {
  node: NodeSpec;
  adapter: Adapter;
  nodeFilesystem: Filesystem | undefined;
  filesystem: Filesystem | undefined;
  projectConfig: ProjectConfig | undefined;
  env: Readonly<Record<string, string | undefined>>;
  parentDetector: ParentAccessDetector | undefined;
  runContext: RunContext;
}

/** The decision, plus the parent evidence when this launch was the one that ran the probe. */
export interface AccessOutcome {
  access: AccessDecision;
  parentCheck?: ParentAccess;
}

const sandboxed = (reason: string, explanation: string): AccessOutcome => ({
  access: { mode: "sandboxed", reason, explanation },
});

async function probeOnce(
  context: RunContext,
  detector: ParentAccessDetector,
): Promise<{ parent: ParentAccess; ranNow: boolean }> {
  if (context.parent !== undefined) return { parent: await context.parent, ranNow: false };
  context.parent = detector.detect().catch((error: unknown): ParentAccess => ({
    fullAccess: false,
    evidence: [{ source: "detector", detail: String(error), passed: false }],
  }));
  return { parent: await context.parent, ranNow: true };
}

/**
 * Decides sandboxed or full access for one launch. Throws RefusalError for a request that cannot
 * be honoured as asked (no rendering, or full access together with a filesystem policy).
 */
export async function decideAccess(input: AccessInput): Promise<AccessOutcome> {
  const { node, adapter } = input;
  if (node.fullAccess !== true)
    return sandboxed("not-requested", "The node does not ask for full access.");
  if (input.nodeFilesystem !== undefined)
    throw new RefusalError(
      "full-access-with-filesystem",
      `node ${node.id} asks for full access and for a ${input.nodeFilesystem} filesystem policy; the two contradict each other`,
    );
  if (FULL_ACCESS_RENDERINGS[adapter] === undefined)
    throw new RefusalError(
      "full-access-unsupported",
      `node ${node.id} asks for full access, and ${adapter} has no full-access rendering; it is refused rather than launched sandboxed`,
    );
  if (input.filesystem === "read-only")
    return sandboxed(
      "read-only-kept",
      "The run asked for a read-only filesystem policy, a deliberate constraint that full access does not lift.",
    );
  if (DISABLING_VALUES.has((input.env[FULL_ACCESS_DISABLE_ENV] ?? "").toLowerCase()))
    return sandboxed(
      "consent-disabled-by-env",
      `${FULL_ACCESS_DISABLE_ENV} switches worker full access off for this process.`,
    );
  const consent = parseWorkerFullAccess(input.projectConfig);
  if (consent.status === "absent")
    return sandboxed(
      "consent-absent",
      "The project config does not set workflow.workerFullAccess; only the project config can grant it.",
    );
  if (consent.status === "malformed")
    return sandboxed(
      "consent-malformed",
      `workflow.workerFullAccess is malformed, so the whole setting is off: ${consent.problems.join("; ")}`,
    );
  if (!consent.setting.enabled)
    return sandboxed(
      "consent-off",
      "The project config sets workflow.workerFullAccess.enabled to false.",
    );
  const floors = consent.setting.floors[adapter] ?? [];
  if (node.model === undefined)
    return sandboxed(
      "model-unset",
      "The node names no model, and an adapter's default cannot be seen.",
    );
  const floor = floors.find((entry) => entry.model === node.model);
  if (floor === undefined)
    return sandboxed(
      "model-not-listed",
      `Model ${node.model} is not on the project's full-access list for ${adapter}.`,
    );
  const scale = effortScale(adapter);
  if (scale !== undefined && floor.minEffort !== undefined) {
    if (node.effort === undefined)
      return sandboxed(
        "effort-unset",
        "The node names no effort, and an adapter's default cannot be seen.",
      );
    const rank = scale.indexOf(node.effort);
    if (rank === -1)
      return sandboxed(
        "effort-unknown",
        `Effort ${node.effort} is not on ${adapter}'s scale (${scale.join(", ")}).`,
      );
    if (rank < scale.indexOf(floor.minEffort))
      return sandboxed(
        "effort-below-floor",
        `Effort ${node.effort} is below the floor ${floor.minEffort} for ${node.model}.`,
      );
  }
  if (input.parentDetector === undefined)
    return sandboxed(
      "parent-unknown",
      "The launching session's access was not checked (no parent-access detector), so it counts as sandboxed.",
    );
  const { parent, ranNow } = await probeOnce(input.runContext, input.parentDetector);
  const parentCheck = ranNow ? { parentCheck: parent } : {};
  if (!parent.fullAccess)
    return {
      ...sandboxed(
        "parent-sandboxed",
        "The launching session is not established as full access; a worker never gets more than its parent.",
      ),
      ...parentCheck,
    };
  return {
    access: {
      mode: "full-access",
      reason: "granted",
      explanation: `The project consents, ${node.model} meets the floor for ${adapter}, and the launching session has full access.`,
    },
    ...parentCheck,
  };
}

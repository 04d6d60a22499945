// state.json of `witness orchestrate`: the workflow, each planned node's tool policy, node progress.
import { join } from "node:path";

import { z } from "zod";

import { writeFileAtomic } from "../../core/atomic.js";
import { canonicalHash } from "../../core/canonical.js";
import { UsageError } from "../../core/errors.js";
import { errnoCode } from "../../core/fs-errors.js";
import { makeDirs } from "../../core/make-dirs.js";
import { readInput } from "../../core/read-input.js";
import { redactStrings } from "../../core/redact.js";
import { toolPolicySchema } from "../policy/tool-policy.js";
import { ambientContextSchema, workflowSpecSchema } from "../spec/schemas.js";

/** Where a node stands in a run. */
export const nodeStatusSchema = z.enum([
  "pending",
  "running",
  "succeeded",
  "failed",
  "refused",
  "skipped",
]);
export type NodeStatus = z.infer<typeof nodeStatusSchema>;

/** One node's progress. */
export const nodeStateSchema = z.strictObject({
  status: nodeStatusSchema,
  exitCode: z.number().int().nullable().optional(),
  reason: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type NodeState = z.infer<typeof nodeStateSchema>;

/**
 * The run's record. There is no opt-in field: the policies are the record, and a planned policy
 * without `settingSources` is, unambiguously, an opted-in run (docs/background.md#tp-record).
 */
export const runStateSchema = z.strictObject({
  version: z.literal(1),
  workflowFile: z.string(),
  /** The workflow, with secret-shaped values redacted (docs in orchestrator/README.md). */
  workflow: workflowSpecSchema,
  /** Set when redaction changed the recorded workflow: the hash of the file's own, for resume. */
  workflowHash: z.string().optional(),
  projectConfigFile: z.string().optional(),
  cwd: z.string(),
  run: z.strictObject({ ambientContext: ambientContextSchema.optional() }),
  toolPolicies: z.record(z.string(), toolPolicySchema),
  nodes: z.record(z.string(), nodeStateSchema),
});
export type RunState = z.infer<typeof runStateSchema>;

/** The state file inside a state directory. */
export function statePath(stateDir: string): string {
  return join(stateDir, "state.json");
}

/**
 * The state as written: a secret in the workflow (a token in a prompt) is redacted, and the hash
 * of the unredacted workflow is kept so a resume can tell the workflow file is still the same.
 */
export function stateForDisk(state: RunState): RunState {
  const workflow = redactStrings(state.workflow);
  const rest = { ...state, workflow };
  delete rest.workflowHash;
  if (canonicalHash(workflow) === canonicalHash(state.workflow)) return rest;
  return { ...rest, workflowHash: canonicalHash(state.workflow) };
}

/** Writes state.json atomically (temp file, then rename): a reader never sees half a file. */
export async function writeState(stateDir: string, state: RunState): Promise<void> {
  try {
    await makeDirs(stateDir);
  } catch (error) {
    throw new UsageError(
      `cannot create the state directory ${stateDir} (${errnoCode(error, "unwritable")}); name one you can write to`,
    );
  }
  await writeFileAtomic(statePath(stateDir), `${JSON.stringify(stateForDisk(state), null, 2)}\n`);
}

/** Reads and validates state.json; a missing or malformed file is an InputError. */
export async function readState(stateDir: string): Promise<RunState> {
  const file = statePath(stateDir);
  return readInput(runStateSchema, file, "the run state");
}

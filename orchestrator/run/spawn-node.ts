// One planned launch through the exec seam: child env, home overlay, events, logs, final state.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { buildChildEnv } from "../../core/child-env.js";
import { runProcess } from "../../core/exec.js";
import { redactArgv, redactText } from "../../core/redact.js";
import type { LaunchPlan } from "../plan/launch-types.js";
import type { EventLog } from "./events.js";
import { materializeHomeOverlay } from "./home-overlay.js";
import type { NodeState } from "./state.js";

/** Beyond the shared allow-list, an agent child needs its HOME and config roots (never a secret). */
export const CHILD_ALLOW = [
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "CODEX_HOME",
  // The planner reads these to pick the files a node may load; the child must see the same ones.
  "OPENCODE_CONFIG_DIR",
  "PI_CODING_AGENT_DIR",
  "TMPDIR",
];

/** Where and how a node is spawned within a run. */
export interface SpawnContext {
  stateDir: string;
  cwd: string;
  /** The parent environment; the child gets its allow-listed part plus the plan's own variables. */
  env: Readonly<Record<string, string | undefined>>;
  log: EventLog;
  timeoutMs?: number;
  /** Called once the node is about to start, so the run can record it as running. */
  onStart: (running: NodeState) => Promise<void>;
}

/** Why a finished child counts as failed, in one line a person can act on (null: it succeeded). */
export function failureReason(
  file: string,
  result: {
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    stderr: string;
    spawnError: string | null;
  },
  timeoutMs?: number,
): string | null {
  if (result.spawnError !== null) {
    const why =
      result.spawnError === "ENOENT"
        ? "not found (is it installed and on PATH?)"
        : result.spawnError === "EACCES"
          ? "not executable"
          : "could not be started";
    return `${file}: ${result.spawnError}: ${why}`;
  }
  if (result.timedOut)
    return `timed out${timeoutMs === undefined ? "" : ` after ${timeoutMs / 1000} s`}`;
  if (result.exitCode === 0) return null;
  const last = result.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .at(-1);
  const how =
    result.signal !== null ? `killed by ${result.signal}` : `exit code ${String(result.exitCode)}`;
  return last === undefined ? how : `${how}: ${redactText(last).slice(0, 300)}`;
}

/** Spawns a planned node and returns its settled state; a failing child is a result, not a throw. */
export async function spawnNode(plan: LaunchPlan, context: SpawnContext): Promise<NodeState> {
  const id = plan.nodeId;
  if (plan.parentCheck !== undefined)
    await context.log.append({ type: "worker_access.parent", nodeId: id, ...plan.parentCheck });
  const childEnv = buildChildEnv({ parent: context.env, allow: CHILD_ALLOW, set: plan.env });
  if (plan.homeOverlay !== undefined) {
    const target = join(context.stateDir, "homes", id, plan.homeOverlay.variable);
    // A resumed leg rebuilds the mirror; rm removes the links, never what they point at.
    await rm(target, { recursive: true, force: true });
    await materializeHomeOverlay(plan.homeOverlay, target);
    childEnv[plan.homeOverlay.variable] = target;
  }
  await context.log.append({
    type: "agent.start",
    nodeId: id,
    adapter: plan.adapter,
    file: plan.file,
    // The log is evidence to read, not a replay: a secret in the argv is redacted.
    args: redactArgv(plan.args),
    ...(plan.stdin === undefined ? {} : { stdin: redactText(plan.stdin) }),
    access: plan.access,
    ambient: plan.ambient,
  });
  const startedAt = new Date().toISOString();
  await context.onStart({ status: "running", startedAt });
  const result = await runProcess({
    file: plan.file,
    args: plan.args,
    ...(plan.stdin === undefined ? {} : { input: plan.stdin }),
    env: childEnv,
    cwd: context.cwd,
    ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
  });
  const logs = join(context.stateDir, "logs");
  await mkdir(logs, { recursive: true });
  await writeFile(join(logs, `${id}.stdout`), result.stdout, "utf8");
  await writeFile(join(logs, `${id}.stderr`), result.stderr, "utf8");
  const status = result.exitCode === 0 ? "succeeded" : "failed";
  await context.log.append({
    type: "agent.end",
    nodeId: id,
    status,
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
  });
  const reason = failureReason(plan.file, result, context.timeoutMs);
  return {
    status,
    exitCode: result.exitCode,
    ...(reason === null ? {} : { reason }),
    startedAt,
    finishedAt: new Date().toISOString(),
  };
}

// What makes an orchestrator launch unfit as evidence, each a line naming it: a command that did
// not run, no spawn through a shim, a model request no shim-started process sent (a bypass),
// spawns past the bound, a spawn record the shim did not finish.
import type { ExecResult } from "../../core/exec.js";
import { MAX_SPAWNS_LIMIT } from "../contracts/orchestrator-launch.js";
import type { CapturedRequest } from "../fake/server.js";
import { isSideRequest, NOT_FOUND_ANSWER } from "../fake/side-routes.js";
import type { SpawnRecord } from "./spawn-records.js";

/** The model requests no shim-started process sent (on the orchestrator's `/o` route, or none). */
export function unshimmedRequests(requests: readonly CapturedRequest[]): CapturedRequest[] {
  return requests.filter((r) => !isSideRequest(r) && (r.spawn === undefined || r.spawn === 0));
}

/** The user-agents of `requests`, each once. */
export function userAgents(requests: readonly CapturedRequest[]): string[] {
  return [...new Set(requests.map((r) => r.headers["user-agent"] ?? "(no user-agent)"))];
}

/** The faults of one orchestrator launch. */
export function orchestratedFaults(input: {
  result: Pick<ExecResult, "exitCode" | "spawnError" | "timedOut" | "stderr">;
  requests: readonly CapturedRequest[];
  records: { spawns: SpawnRecord[]; refused: number };
  maxSpawns: number;
  /** `claude-code 2.1.332`. */
  cli: string;
  command: readonly string[];
  /**
   * The launch's allowance of an unshimmed binary as judged (`judgeUnshimmed`): allowed, its
   * requests are no bypass; refused, the bypass names why (the hashes compared).
   */
  unshimmed?: { allowed: boolean; fault: string | null };
}): string[] {
  const { result, records } = input;
  const faults: string[] = [];
  const program = input.command[0] ?? "";
  const said = result.stderr.trim().split("\n").at(-1) ?? "";
  if (result.spawnError !== null)
    faults.push(`orchestrator-not-started: ${program}: ${result.spawnError}`);
  else if (result.exitCode === 127 && records.spawns.length === 0)
    faults.push(`orchestrator-not-found: ${program} could not be run (exit 127): ${said}`);
  else if (records.spawns.length === 0 && input.unshimmed?.allowed !== true)
    faults.push(
      `no-spawn: the orchestrator ended (exit ${result.exitCode}) without starting ${input.cli} through its shim`,
    );
  if (result.timedOut) faults.push("timeout: the orchestrator did not finish in time");
  const model = input.requests.filter((r) => !isSideRequest(r));
  const bypass = unshimmedRequests(input.requests);
  if (bypass.length > 0 && input.unshimmed?.allowed !== true) {
    const agents = userAgents(bypass);
    const refused = input.unshimmed?.fault ?? null;
    faults.push(
      `bypass: ${bypass.length} model request(s) came from a process no shim started (user-agent ${agents.map((a) => JSON.stringify(a)).join(", ")}): the orchestrator ran a ${input.cli.split(" ")[0]} binary witness did not launch${refused === null ? "" : `, and the launch's allowance does not hold: ${refused}`}`,
    );
  }
  if (model.length === 0 && records.spawns.length > 0)
    faults.push("no-request: no model request reached the fake server");
  if (records.refused > 0)
    faults.push(
      `spawn-limit: the orchestrator tried more than ${input.maxSpawns} spawns (the launch's maxSpawns; at most ${MAX_SPAWNS_LIMIT}); ${records.refused} refused`,
    );
  for (const spawn of records.spawns) {
    if (spawn.problem !== null) faults.push(`spawn-record: ${spawn.problem}`);
    else if (spawn.exit === null)
      faults.push(
        `spawn-unfinished: spawn ${spawn.spawn} recorded no exit (killed before it ended)`,
      );
  }
  for (const r of model)
    if (r.answer === NOT_FOUND_ANSWER)
      faults.push(`unserved-model-request: ${r.method} ${r.path} (the fake serves no such route)`);
  return faults;
}

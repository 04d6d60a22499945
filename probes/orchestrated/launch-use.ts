// An orchestrator launch's resource use taken apart: each CLI process as its shim measured it, and
// the orchestrator's own as the rest of the launch's tree (which its PID namespace's first process
// measured, as for a CLI's own spawn).
import type { CliUse, OrchestratorUse, SpawnObservation } from "../contracts/observation.js";
import type { ShimUse } from "./spawn-records.js";

const MS_PER_TICK = 10;

/** One CLI process's use from its shim's record; nothing when the shim measured no CPU. */
export function shimCliUse(use: ShimUse | undefined): { cliUse?: CliUse; shimCpuMs?: number } {
  if (use === undefined) return {};
  const shimCpuMs = use.shimCpuMs;
  if (use.userTicks === undefined || use.systemTicks === undefined) return { shimCpuMs };
  const userMs = use.userTicks * MS_PER_TICK;
  const systemMs = use.systemTicks * MS_PER_TICK;
  const cliUse: CliUse = {
    userMs,
    systemMs,
    cpuMs: userMs + systemMs,
    wallMs: use.wallMs,
    resolutionMs: MS_PER_TICK,
    source: "cell-shim",
    ...(use.hwmKb === null
      ? {}
      : { peakMemory: { bytes: use.hwmKb * 1024, source: "cli-process-vmhwm-polled" } }),
  };
  return { cliUse, shimCpuMs };
}

/** The launch's tree taken apart; null when the tree was not measured (no PID namespace). */
export function orchestratorUse(
  tree: CliUse | null,
  spawns: readonly SpawnObservation[],
): OrchestratorUse | null {
  if (tree === null) return null;
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const clisCpuMs = sum(spawns.map((s) => s.cliUse?.cpuMs ?? 0));
  const shimsCpuMs = sum(spawns.map((s) => s.shimCpuMs ?? 0));
  return {
    tree,
    clisCpuMs,
    shimsCpuMs,
    ownCpuMs: tree.cpuMs - clisCpuMs - shimsCpuMs,
    unmeasuredSpawns: spawns.filter((s) => s.cliUse === undefined).length,
  };
}

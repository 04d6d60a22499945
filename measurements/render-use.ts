import type { CliUse } from "../probes/contracts/observation.js";
import type { SpawnRecord } from "./record.js";

// What the spawn cost: the CLI's process tree (from its PID namespace's first process and its
// memory cgroup), or an orchestrator launch's tree taken apart (each CLI process as its shim
// measured it), and witness's own phases; records before the accounting state nothing.
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function cliLine(spawn: number, use: CliUse | undefined): string {
  if (use === undefined) return `${spawn}: not measured`;
  const peak =
    use.peakMemory === undefined ? "" : `, its process's peak ${mb(use.peakMemory.bytes)} MB`;
  return `${spawn}: ${use.cpuMs} ms CPU, ${use.wallMs} ms wall${peak}`;
}

/** The spawn's `- resources:` line, when it was measured. */
export function useLines(obs: NonNullable<SpawnRecord["observation"]>): string[] {
  const cli = obs.cliUse;
  const own = obs.witnessUse;
  const o = obs.orchestratorUse;
  if (cli === undefined && own === undefined && o === undefined) return [];
  const ownCpu =
    own === undefined ? "" : `; witness ${Math.round(own.cpuMs + own.helpersMs)} ms CPU`;
  if (o !== undefined) {
    const clis = (obs.spawns ?? []).map((s) => cliLine(s.spawn, s.cliUse)).join("; ");
    const peak =
      o.tree.peakMemory === undefined ? "" : `, peak memory ${mb(o.tree.peakMemory.bytes)} MB`;
    return [
      `- resources: the launch's process tree ${o.tree.cpuMs} ms CPU, ${o.tree.wallMs} ms wall${peak}; of its CPU the orchestrator's own ${o.ownCpuMs} ms, its CLI processes' ${o.clisCpuMs} ms (${clis || "none"}), the shims' ${o.shimsCpuMs} ms${ownCpu}`,
    ];
  }
  const peak =
    cli?.peakMemory === undefined
      ? ""
      : `, peak memory ${mb(cli.peakMemory.bytes)} MB (${cli.peakMemory.source})`;
  const tree =
    cli === undefined
      ? "the CLI's process tree not measured"
      : `the CLI's process tree ${cli.cpuMs} ms CPU, ${cli.wallMs} ms wall${peak}`;
  return [`- resources: ${tree}${ownCpu}`];
}

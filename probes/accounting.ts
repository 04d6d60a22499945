// The accounting of a run from what was measured: the CLIs' own CPU (each spawn's process tree, from
// its PID namespace's first process), witness's own (its process and its helper processes: the
// whole process's CPU less the CLIs'), per spawn and per CLI. No estimate enters it. An
// orchestrator launch counts each CLI process it started (its shim's figure) among the CLIs', and
// the orchestrator's own CPU apart; its shims are witness's.
import type { CliUse } from "./contracts/observation.js";
import { type SpawnAccount, spawnLedger } from "./spawn-use.js";

/** One CLI's spawns in a run. */
export interface CliAccount {
  cli: string;
  /** witness's spawns: a CLI's own, or an orchestrator launch. */
  spawns: number;
  /** CLI processes whose use was measured (a PID namespace's init, or an orchestrator's cell shim); the means are over those. */
  measured: number;
  /** Of the spawns, orchestrator launches measured, and their orchestrators' own CPU in all. */
  orchestratorLaunches: number;
  orchestratorCpuMs: number;
  cliCpuMs: number;
  cliMeanCpuMs: number | null;
  cliMeanWallMs: number | null;
  /** The largest peak memory of one spawn's process tree (its memory cgroup's), in MB; null where none was measured. */
  cliPeakMemoryMb: number | null;
  /** witness's own CPU in this CLI's spawns' phases (its process and its helpers), a spawn. */
  witnessMeanCpuMs: number;
}

/** What a run cost and who spent it, in ms. */
export interface RunAccount {
  spawns: number;
  /** Spawns whose CLI use was not measured: their CLIs' CPU is inside witness's figure. */
  unmeasured: number;
  cliCpuMs: number;
  /** The orchestrators' own CPU (their launches' trees less their CLIs' and shims'). */
  orchestratorCpuMs: number;
  /** The process's own CPU and its reaped children's, less the CLIs' and orchestrators': witness's whole share. */
  witnessCpuMs: number;
  witnessPerSpawnMs: number | null;
  /** Of witness's share: its process's and its helper processes' (10 ms ticks). */
  witnessProcessMs: number;
  witnessHelpersMs: number;
  /** Of witness's share: what its spawns' phases held, and what ran outside every spawn. */
  inSpawnsMs: number;
  outsideSpawnsMs: number;
  work: { label: string; count: number; cpuMs: number }[];
  perCli: CliAccount[];
}

const round = (ms: number) => Math.round(ms);

const MB = 2 ** 20;

// Of whole trees only (a spawn's memory cgroup): a cell shim's figure is one process's resident set.
function peakMb(used: readonly CliUse[]): number | null {
  const peaks = used.flatMap((u) =>
    u.peakMemory === undefined || u.source !== "pid-namespace-init" ? [] : [u.peakMemory.bytes],
  );
  return peaks.length === 0 ? null : Math.round(Math.max(...peaks) / MB);
}

/** The accounting of this process's spawns so far; null when it made none. */
export function runAccount(): RunAccount | null {
  const { spawns, work, process: total } = spawnLedger();
  if (spawns.length === 0) return null;
  const clisOf = (a: SpawnAccount): CliUse[] =>
    a.cliUse !== null ? [a.cliUse] : (a.orchestrator?.spawns ?? []);
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const cliCpuMs = sum(spawns.flatMap(clisOf).map((u) => u.cpuMs));
  const orchestratorCpuMs = sum(spawns.map((a) => a.orchestrator?.ownCpuMs ?? 0));
  const childrenMs = total.childrenMs ?? 0;
  const witnessCpuMs = total.cpuMs + childrenMs - cliCpuMs - orchestratorCpuMs;
  const inSpawnsMs = spawns.reduce((s, a) => s + a.witnessUse.cpuMs + a.witnessUse.helpersMs, 0);
  const byCli = new Map<string, typeof spawns>();
  for (const a of spawns) byCli.set(a.cli, [...(byCli.get(a.cli) ?? []), a]);
  const perCli = [...byCli].map(([cli, list]): CliAccount => {
    const used = list.flatMap(clisOf);
    const launches = list.filter((a) => a.orchestrator !== undefined);
    const mean = (xs: number[]) =>
      xs.length === 0 ? null : round(xs.reduce((s, x) => s + x, 0) / xs.length);
    return {
      cli,
      spawns: list.length,
      measured: used.length,
      orchestratorLaunches: launches.length,
      orchestratorCpuMs: round(sum(launches.map((a) => a.orchestrator?.ownCpuMs ?? 0))),
      cliCpuMs: round(used.reduce((s, u) => s + u.cpuMs, 0)),
      cliMeanCpuMs: mean(used.map((u) => u.cpuMs)),
      cliMeanWallMs: mean(used.map((u) => u.wallMs)),
      cliPeakMemoryMb: peakMb(used),
      witnessMeanCpuMs: mean(list.map((a) => a.witnessUse.cpuMs + a.witnessUse.helpersMs)) ?? 0,
    };
  });
  return {
    spawns: spawns.length,
    unmeasured: spawns.filter((a) => a.cliUse === null && a.orchestrator === undefined).length,
    cliCpuMs: round(cliCpuMs),
    orchestratorCpuMs: round(orchestratorCpuMs),
    witnessCpuMs: round(witnessCpuMs),
    witnessPerSpawnMs: round(witnessCpuMs / spawns.length),
    witnessProcessMs: round(total.cpuMs),
    witnessHelpersMs: round(childrenMs - cliCpuMs - orchestratorCpuMs),
    inSpawnsMs: round(inSpawnsMs),
    outsideSpawnsMs: round(witnessCpuMs - inSpawnsMs),
    work: work.map((w) => ({
      label: w.label,
      count: w.count,
      cpuMs: round(w.cpuMs + w.helpersMs),
    })),
    perCli,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The account as the lines `witness run` prints after its summary. */
export function accountLines(a: RunAccount): string[] {
  const unmeasured =
    a.unmeasured === 0
      ? ""
      : ` (${a.unmeasured} spawns' CLI use was not measured, without a PID namespace: their CLIs' CPU is counted in witness's)`;
  const launched = a.perCli.some((c) => c.orchestratorLaunches > 0);
  const orchestrators = !launched
    ? ""
    : `; the orchestrators ${s(a.orchestratorCpuMs)} (their launches' process trees less their CLIs' and shims')`;
  const work = a.work.map((w) => `, ${w.label} ${w.cpuMs} ms (${w.count})`).join("");
  return [
    `CPU: the CLIs ${s(a.cliCpuMs)} (their process trees, measured in each spawn's PID namespace${launched ? ", or by an orchestrator's cell shims" : ""})${orchestrators}; witness ${s(a.witnessCpuMs)}, ${a.witnessPerSpawnMs} ms a spawn (its process ${s(a.witnessProcessMs)}, its helper processes ${s(a.witnessHelpersMs)}; in the spawns ${s(a.inSpawnsMs)}, outside them ${s(a.outsideSpawnsMs)}${work})${unmeasured}`,
    ...a.perCli.map(
      (c) =>
        `  ${c.cli}: ${c.spawns} spawns${c.orchestratorLaunches === 0 ? "" : ` (${c.orchestratorLaunches} orchestrator launches, ${c.measured} CLI processes measured, the orchestrator ${Math.round(c.orchestratorCpuMs / c.orchestratorLaunches)} ms CPU a launch)`}, the CLI ${c.cliMeanCpuMs ?? "?"} ms CPU and ${c.cliMeanWallMs ?? "?"} ms wall a spawn${c.cliPeakMemoryMb === null ? "" : `, its process tree's peak memory at most ${c.cliPeakMemoryMb} MB`}, witness ${c.witnessMeanCpuMs} ms CPU a spawn`,
    ),
  ];
}

// The accounting of a run from what was measured: the CLIs' own CPU (each spawn's process tree, from
// its PID namespace's first process), witness's own (its process and its helper processes: the
// whole process's CPU less the CLIs'), per spawn and per CLI. No estimate enters it.
import { spawnLedger } from "./spawn-use.js";

/** One CLI's spawns in a run. */
export interface CliAccount {
  cli: string;
  spawns: number;
  /** Spawns whose CLI use was measured (a PID namespace's init); the means are over those. */
  measured: number;
  cliCpuMs: number;
  cliMeanCpuMs: number | null;
  cliMeanWallMs: number | null;
  /** The largest peak memory of one spawn's process tree, in MB; null where none was measured. */
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
  /** The process's own CPU and its reaped children's, less the CLIs': witness's whole share. */
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

function peakMb(used: readonly { peakMemory?: { bytes: number } | undefined }[]): number | null {
  const peaks = used.flatMap((u) => (u.peakMemory === undefined ? [] : [u.peakMemory.bytes]));
  return peaks.length === 0 ? null : Math.round(Math.max(...peaks) / MB);
}

/** The accounting of this process's spawns so far; null when it made none. */
export function runAccount(): RunAccount | null {
  const { spawns, work, process: total } = spawnLedger();
  if (spawns.length === 0) return null;
  const cliCpuMs = spawns.reduce((s, a) => s + (a.cliUse?.cpuMs ?? 0), 0);
  const childrenMs = total.childrenMs ?? 0;
  const witnessCpuMs = total.cpuMs + childrenMs - cliCpuMs;
  const inSpawnsMs = spawns.reduce((s, a) => s + a.witnessUse.cpuMs + a.witnessUse.helpersMs, 0);
  const byCli = new Map<string, typeof spawns>();
  for (const a of spawns) byCli.set(a.cli, [...(byCli.get(a.cli) ?? []), a]);
  const perCli = [...byCli].map(([cli, list]): CliAccount => {
    const used = list.flatMap((a) => (a.cliUse === null ? [] : [a.cliUse]));
    const mean = (xs: number[]) =>
      xs.length === 0 ? null : round(xs.reduce((s, x) => s + x, 0) / xs.length);
    return {
      cli,
      spawns: list.length,
      measured: used.length,
      cliCpuMs: round(used.reduce((s, u) => s + u.cpuMs, 0)),
      cliMeanCpuMs: mean(used.map((u) => u.cpuMs)),
      cliMeanWallMs: mean(used.map((u) => u.wallMs)),
      cliPeakMemoryMb: peakMb(used),
      witnessMeanCpuMs: mean(list.map((a) => a.witnessUse.cpuMs + a.witnessUse.helpersMs)) ?? 0,
    };
  });
  return {
    spawns: spawns.length,
    unmeasured: spawns.filter((a) => a.cliUse === null).length,
    cliCpuMs: round(cliCpuMs),
    witnessCpuMs: round(witnessCpuMs),
    witnessPerSpawnMs: round(witnessCpuMs / spawns.length),
    witnessProcessMs: round(total.cpuMs),
    witnessHelpersMs: round(childrenMs - cliCpuMs),
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
  const work = a.work.map((w) => `, ${w.label} ${w.cpuMs} ms (${w.count})`).join("");
  return [
    `CPU: the CLIs ${s(a.cliCpuMs)} (their process trees, measured in each spawn's PID namespace); witness ${s(a.witnessCpuMs)}, ${a.witnessPerSpawnMs} ms a spawn (its process ${s(a.witnessProcessMs)}, its helper processes ${s(a.witnessHelpersMs)}; in the spawns ${s(a.inSpawnsMs)}, outside them ${s(a.outsideSpawnsMs)}${work})${unmeasured}`,
    ...a.perCli.map(
      (c) =>
        `  ${c.cli}: ${c.spawns} spawns, the CLI ${c.cliMeanCpuMs ?? "?"} ms CPU and ${c.cliMeanWallMs ?? "?"} ms wall a spawn${c.cliPeakMemoryMb === null ? "" : `, its process tree's peak memory at most ${c.cliPeakMemoryMb} MB`}, witness ${c.witnessMeanCpuMs} ms CPU a spawn`,
    ),
  ];
}

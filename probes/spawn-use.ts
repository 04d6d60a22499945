// witness's own cost per spawn, phase by phase, beside the CLI's measured use: what the run summary
// and the benchmark read instead of an estimate. The witness process's CPU (process.cpuUsage, every
// thread) and its reaped children's (/proc/self/stat cutime + cstime) are sampled at each phase
// change of any spawn; what passed since the last sample is shared equally among the spawns
// running then (the CPU of a process running two spawns at once cannot be told apart further).
// What passed while none ran (start-up, protocol checks, installs, record writes) is the process's
// total less its spawns' (spawnLedger). A spawn's children's share leaves out the CLI's own tree,
// which its init measured.
import { readFileSync } from "node:fs";

import type { CliUse, SpawnPhase, WitnessUse } from "./contracts/observation.js";
import { SPAWN_PHASES } from "./contracts/observation.js";

interface Sample {
  cpuMs: number;
  childrenMs: number | null;
}

/** The CPU of every child this process has reaped, in ms (10 ms ticks); null without /proc. */
export function reapedChildrenMs(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

function sample(): Sample {
  const { user, system } = process.cpuUsage();
  return { cpuMs: (user + system) / 1000, childrenMs: reapedChildrenMs() };
}

interface Bucket {
  wallMs: number;
  cpuMs: number;
  helpersMs: number;
}

interface Running {
  phase: SpawnPhase;
  since: number;
  buckets: Map<SpawnPhase, Bucket>;
  concurrent: number;
}

const running = new Set<Running>();
let last: Sample | null = null;

function bucket(r: Running, phase: SpawnPhase): Bucket {
  let b = r.buckets.get(phase);
  if (b === undefined) {
    b = { wallMs: 0, cpuMs: 0, helpersMs: 0 };
    r.buckets.set(phase, b);
  }
  return b;
}

// Shares what passed since the last sample among the running spawns; `reapedCliMs` is the CLI
// tree a spawn has just reaped (its init's figure), which is the CLI's, not a helper's.
function settle(reapedCliMs: number): void {
  const now = sample();
  const before = last ?? now;
  last = now;
  const cpu = now.cpuMs - before.cpuMs;
  const children =
    now.childrenMs === null || before.childrenMs === null
      ? 0
      : now.childrenMs - before.childrenMs - reapedCliMs;
  for (const r of running) {
    const b = bucket(r, r.phase);
    b.cpuMs += cpu / running.size;
    b.helpersMs += children / running.size;
  }
}

/** One spawn's meter: `phase` at each change, `end` once it is over. */
export interface SpawnMeter {
  /** Enters `phase`; `reapedCliMs`: the CLI's own CPU, when its process tree was just reaped. */
  phase(phase: SpawnPhase, reapedCliMs?: number): void;
  end(): WitnessUse;
}

/** A spawn of one CLI, measured in the spawn ledger of this process. */
export interface SpawnAccount {
  cli: string;
  /** A CLI's own spawn's use; null for an orchestrator launch, or where it was not measured. */
  cliUse: CliUse | null;
  witnessUse: WitnessUse;
  /** An orchestrator launch: its own CPU, and each CLI process's use its shim measured. */
  orchestrator?: { ownCpuMs: number; spawns: CliUse[] };
}

const ledger: SpawnAccount[] = [];

/** Work of witness's own outside the spawns, metered as a spawn's phase is (count, wall, CPU). */
export interface WorkAccount {
  label: string;
  count: number;
  wallMs: number;
  cpuMs: number;
  helpersMs: number;
}

const work = new Map<string, WorkAccount>();

/** Runs `fn` as a piece of witness's own work named `label` (a record's write), metered. */
export async function meterWork<T>(label: string, fn: () => Promise<T>): Promise<T> {
  settle(0);
  const r: Running = {
    phase: "prepare",
    since: performance.now(),
    buckets: new Map(),
    concurrent: 0,
  };
  running.add(r);
  try {
    return await fn();
  } finally {
    settle(0);
    running.delete(r);
    const b = bucket(r, "prepare");
    const w = work.get(label) ?? { label, count: 0, wallMs: 0, cpuMs: 0, helpersMs: 0 };
    work.set(label, {
      label,
      count: w.count + 1,
      wallMs: round(w.wallMs + performance.now() - r.since),
      cpuMs: round(w.cpuMs + b.cpuMs),
      helpersMs: round(w.helpersMs + b.helpersMs),
    });
  }
}

/** Starts metering a spawn (in its first phase, `prepare`). */
export function startSpawnMeter(): SpawnMeter {
  settle(0);
  const r: Running = {
    phase: "prepare",
    since: performance.now(),
    buckets: new Map(),
    concurrent: 0,
  };
  running.add(r);
  const note = () => {
    for (const other of running) other.concurrent = Math.max(other.concurrent, running.size);
  };
  const leave = () => {
    bucket(r, r.phase).wallMs += performance.now() - r.since;
  };
  note();
  return {
    phase(phase, reapedCliMs = 0) {
      settle(reapedCliMs);
      leave();
      r.phase = phase;
      r.since = performance.now();
      note();
    },
    end() {
      settle(0);
      leave();
      running.delete(r);
      const phases = SPAWN_PHASES.filter((p) => r.buckets.has(p)).map((p) => {
        const b = r.buckets.get(p) as Bucket;
        return {
          phase: p,
          wallMs: round(b.wallMs),
          cpuMs: round(b.cpuMs),
          helpersMs: round(b.helpersMs),
        };
      });
      const sum = (key: "cpuMs" | "helpersMs") => round(phases.reduce((s, p) => s + p[key], 0));
      return { phases, cpuMs: sum("cpuMs"), helpersMs: sum("helpersMs"), concurrent: r.concurrent };
    },
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Adds a finished spawn to this process's ledger. */
export function addSpawnAccount(account: SpawnAccount): void {
  ledger.push(account);
}

/** This process's spawns and its whole CPU so far: its own, and its reaped children's. */
export function spawnLedger(): {
  spawns: readonly SpawnAccount[];
  work: readonly WorkAccount[];
  process: { cpuMs: number; childrenMs: number | null };
} {
  const now = sample();
  return {
    spawns: [...ledger],
    work: [...work.values()],
    process: { cpuMs: round(now.cpuMs), childrenMs: now.childrenMs },
  };
}

// What a user pays, as whole processes: `witness probe` against the bare CLI per CLI, and
// `witness run --all` against the CPU-bound ideal (the CLIs' own CPU ÷ cores), the CLIs' CPU as
// each spawn's PID namespace measured it (the observation's cliUse), witness's as the rest.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";

import { PROBE_CLI_NAMES } from "../clis/names.js";
import { PINNED } from "../clis/pinned.js";
import { buildChildEnv } from "../core/child-env.js";
import {
  type Observation,
  SPAWN_PHASES,
  type SpawnPhase,
} from "../probes/contracts/observation.js";
import type { ProbeCliName } from "../probes/contracts/probe-spec.js";
import { ensureCli } from "../probes/vendor-cache.js";
import { BUILT_CLI, builtCli, WITNESS_ROOT } from "../test/support/built-cli.js";
import { median } from "./median.js";
import { ARGV, bareRunners, compileCacheNote, writeProbeInputs } from "./probe.bench.js";
import { underBash } from "./under-bash.js";

// WITNESS_BENCH_RUNS shrinks a trial run of the bench itself; WITNESS_BENCH_RUN_ALL=0 leaves out
// the `witness run --all` rows (they need every protocol's CLI version in the vendor cache).
const ROUNDS = Number(process.env.WITNESS_BENCH_RUNS ?? 5);
const PER_ROUND = 2;
const RUN_ALL_ROUNDS = Number(process.env.WITNESS_BENCH_RUN_ALL_ROUNDS ?? Math.min(3, ROUNDS));
// Every supported CLI, at its pinned version (installed into the vendor cache when missing).
const NAMES: readonly ProbeCliName[] = PROBE_CLI_NAMES;

interface Timed {
  wallMs: number;
  /** User + system CPU of the process and every child it waited for (bash's `times`). */
  cpuMs: number;
  /** The 1-minute load average when it ended. */
  load: number;
  /** `witness probe --json`: the observation it printed. */
  observation?: Observation;
}

// One process under bash: wall time and the CPU of it and everything it started.
async function timed(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  okExits: readonly number[] = [0],
  stdoutTo?: string,
): Promise<Timed> {
  const { wallMs, cpuMs } = await underBash(file, args, env, cwd, {
    okExits,
    ...(stdoutTo === undefined ? {} : { stdoutTo }),
  });
  return { wallMs, cpuMs, load: os.loadavg()[0] ?? NaN };
}

interface Pair {
  bare: () => Promise<Timed>;
  probe: () => Promise<Timed>;
  close: () => Promise<void>;
}

async function pairFor(name: ProbeCliName, dir: string): Promise<Pair> {
  const { bin } = await ensureCli(PINNED[name]);
  const bare = await bareRunners(name, bin);
  const { fx, sc } = await writeProbeInputs(dir);
  const { version } = PINNED[name];
  const probeArgs = [BUILT_CLI, "probe", "--json", "--cli", `${name}@${version}`, "--fixture", fx];
  const printed = join(dir, `${name}-observation.json`);
  return {
    bare: async () => {
      await bare.resetHome();
      const c = bare.command;
      return timed(c.file, c.args, c.env, c.cwd);
    },
    probe: async () => {
      const t = await timed(
        process.execPath,
        [...probeArgs, "--script", sc, "--", ...ARGV[name]],
        // witness builds each spawn's environment itself, from the user's.
        buildChildEnv({ parent: process.env }),
        dir,
        [0],
        printed,
      );
      return { ...t, observation: JSON.parse(await readFile(printed, "utf8")) as Observation };
    },
    close: bare.close,
  };
}

interface Samples {
  bare: Timed[];
  probe: Timed[];
  ratios: number[];
}

async function probeRows(
  dir: string,
): Promise<{ rows: string[]; phaseRows: string[]; bareCpu: Map<string, number> }> {
  const pairs = new Map<ProbeCliName, Pair>();
  const got = new Map<ProbeCliName, Samples>();
  try {
    for (const name of NAMES) {
      const pair = await pairFor(name, dir);
      pairs.set(name, pair);
      got.set(name, { bare: [], probe: [], ratios: [] });
      await pair.bare(); // warm-up: page cache, first namespace
      await pair.probe();
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, pair] of pairs) {
        const s = got.get(name) as Samples;
        const bare: Timed[] = [];
        const probe: Timed[] = [];
        for (let i = 0; i < PER_ROUND; i++) {
          // Alternating within the round, the order flipped every round.
          if ((round + i) % 2 === 0) {
            bare.push(await pair.bare());
            probe.push(await pair.probe());
          } else {
            probe.push(await pair.probe());
            bare.push(await pair.bare());
          }
        }
        s.bare.push(...bare);
        s.probe.push(...probe);
        s.ratios.push(median(probe.map((t) => t.wallMs)) / median(bare.map((t) => t.wallMs)));
      }
    }
  } finally {
    for (const pair of pairs.values()) await pair.close();
  }
  const rows: string[] = [];
  const phaseRows: string[] = [];
  const bareCpu = new Map<string, number>();
  for (const [name, s] of got) {
    const bw = median(s.bare.map((t) => t.wallMs));
    const pw = median(s.probe.map((t) => t.wallMs));
    const bc = median(s.bare.map((t) => t.cpuMs));
    const pc = median(s.probe.map((t) => t.cpuMs));
    // The CLI's own CPU under witness, measured in its PID namespace, and witness's: the rest.
    const cli = median(s.probe.map((t) => t.observation?.cliUse?.cpuMs ?? NaN));
    const own = median(s.probe.map((t) => t.cpuMs - (t.observation?.cliUse?.cpuMs ?? NaN)));
    const load = median([...s.bare, ...s.probe].map((t) => t.load));
    bareCpu.set(name, bc);
    rows.push(
      `| ${name}@${PINNED[name].version} | ${bw.toFixed(0)} | ${pw.toFixed(0)} | ${median(s.ratios).toFixed(2)} | ${bc.toFixed(0)} | ${pc.toFixed(0)} | ${cli.toFixed(0)} | ${own.toFixed(0)} | ${(pc - bc).toFixed(0)} | ${load.toFixed(1)} |`,
    );
    phaseRows.push(phaseRow(`${name}@${PINNED[name].version}`, s.probe));
  }
  return { rows, phaseRows, bareCpu };
}

// witness's own CPU in each phase of the spawn (its process and its helpers), medians over the
// probe runs, and the rest of the process: start-up, module loading, once-a-process checks, exit.
function phaseRow(cli: string, probes: readonly Timed[]): string {
  const of = (t: Timed, phase: SpawnPhase) => {
    const p = t.observation?.witnessUse?.phases.find((x) => x.phase === phase);
    return p === undefined ? 0 : p.cpuMs + p.helpersMs;
  };
  const cells = SPAWN_PHASES.map((phase) => median(probes.map((t) => of(t, phase))).toFixed(0));
  const inSpawn = (t: Timed) => SPAWN_PHASES.reduce((sum, phase) => sum + of(t, phase), 0);
  const own = (t: Timed) => t.cpuMs - (t.observation?.cliUse?.cpuMs ?? NaN);
  const outside = median(probes.map((t) => own(t) - inSpawn(t)));
  return `| ${cli} | ${cells.join(" | ")} | ${median(probes.map(inSpawn)).toFixed(0)} | ${outside.toFixed(0)} |`;
}

interface RunSpawns {
  /** Spawns per CLI (name@version). */
  spawns: Map<string, number>;
  /** Of those, the spawns whose CLI use was measured, and their CLI CPU and witness CPU. */
  measured: Map<string, { n: number; cliMs: number; witnessMs: number }>;
}

// The spawns a finished run made, per CLI, and what each one's observation measured.
async function runSpawns(out: string): Promise<RunSpawns> {
  const spawns = new Map<string, number>();
  const measured = new Map<string, { n: number; cliMs: number; witnessMs: number }>();
  for (const f of (await readdir(out)).filter((n) => n.endsWith(".json"))) {
    const r = JSON.parse(await readFile(join(out, f), "utf8")) as {
      cli: { name: string; version: string };
      arms: { spawns: { observation: Observation | null }[] }[];
    };
    const cli = `${r.cli.name}@${r.cli.version}`;
    for (const spawn of r.arms.flatMap((a) => a.spawns)) {
      spawns.set(cli, (spawns.get(cli) ?? 0) + 1);
      const o = spawn.observation;
      if (o?.cliUse === undefined || o.witnessUse === undefined) continue;
      const m = measured.get(cli) ?? { n: 0, cliMs: 0, witnessMs: 0 };
      measured.set(cli, {
        n: m.n + 1,
        cliMs: m.cliMs + o.cliUse.cpuMs,
        witnessMs: m.witnessMs + o.witnessUse.cpuMs + o.witnessUse.helpersMs,
      });
    }
  }
  return { spawns, measured };
}

async function runAllRows(dir: string): Promise<string[]> {
  const cores = os.availableParallelism();
  const rows: string[] = [];
  const perCli = new Map<string, { n: number; cliMs: number; witnessMs: number }[]>();
  for (let round = 0; round < RUN_ALL_ROUNDS; round++) {
    const out = await mkdtemp(join(dir, "run-all-"));
    const loadBefore = os.loadavg()[0] ?? NaN;
    try {
      const run = await timed(
        process.execPath,
        [BUILT_CLI, "run", "--all", "--out", out],
        buildChildEnv({ parent: process.env }),
        WITNESS_ROOT,
        // 1 is a refuted verdict: the shipped set keeps the claims the CLIs refuted as results.
        [0, 1],
      );
      const { spawns, measured } = await runSpawns(out);
      const n = [...spawns.values()].reduce((a, b) => a + b, 0);
      const m = [...measured.values()].reduce((a, b) => a + b.n, 0);
      const cliMs = [...measured.values()].reduce((a, b) => a + b.cliMs, 0);
      for (const [cli, x] of measured) perCli.set(cli, [...(perCli.get(cli) ?? []), x]);
      const ideal = cliMs / cores;
      rows.push(
        `| ${round + 1} | ${n} (${m} measured) | ${(run.wallMs / 1000).toFixed(1)} | ${(ideal / 1000).toFixed(1)} | ${(run.wallMs / ideal).toFixed(2)} | ${(run.cpuMs / 1000).toFixed(1)} | ${(cliMs / 1000).toFixed(1)} | ${((run.cpuMs - cliMs) / n).toFixed(0)} | ${loadBefore.toFixed(1)} → ${run.load.toFixed(1)} |`,
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }
  const cliRows = [...perCli].map(([cli, xs]) => {
    const per = (f: (x: { n: number; cliMs: number; witnessMs: number }) => number) =>
      median(xs.map((x) => f(x) / x.n)).toFixed(0);
    return `| ${cli} | ${median(xs.map((x) => x.n))} | ${per((x) => x.cliMs)} | ${per((x) => x.witnessMs)} |`;
  });
  return [
    "| round | spawns | wall (s) | ideal (s) | ratio | CPU (s) | the CLIs' own CPU (s) | witness CPU per spawn (ms) | load (1 min), start → end |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows,
    "",
    `Per CLI, from the same runs' records (medians over the rounds of each round's mean a spawn): the CLI's own CPU, and witness's in the spawn's phases (its process's CPU shared among the ${cores} spawns running at once, and its helpers'); the rest of witness's CPU per spawn above ran outside every spawn (start-up, protocol checks, record writes).`,
    "",
    "| CLI | spawns | the CLI's CPU a spawn (ms) | witness in the spawn (ms) |",
    "|---|---:|---:|---:|",
    ...cliRows,
  ];
}

/** Runs both comparisons and returns the Markdown section. */
export default async function benchWholeProcess(): Promise<string> {
  builtCli(); // refuses a stale dist/
  const load = os.loadavg()[0] ?? NaN;
  const dir = await mkdtemp(join(os.tmpdir(), "witness-bench-whole-"));
  try {
    const { rows, phaseRows } = await probeRows(dir);
    const runAll =
      process.env.WITNESS_BENCH_RUN_ALL === "0"
        ? ["`witness run --all`: not run (WITNESS_BENCH_RUN_ALL=0)."]
        : await runAllRows(dir);
    return [
      "## whole-process: what a user pays, `witness probe` and `witness run --all`",
      "",
      `\`witness probe --json\` (\`node dist/cli/main.js probe --json --cli … --fixture … --script … -- <argv>\`,`,
      "the fixture, script and argv of bench/probe.bench.ts) against the bare CLI binary with the same",
      `env from a fresh copy of the cell's HOME, against a fake server in the bench process: ${ROUNDS} rounds ×`,
      `${PER_ROUND} runs of each, alternating, the order flipped every round. Each is one process under`,
      "bash, whose `times` gives the CPU of the process and the children it waited for. The ratio is",
      "the median over rounds of (median witness ÷ median bare) wall time within the round; the bare",
      "CPU leaves out the fake server, which witness runs in its own process. The CLI's own CPU under",
      "witness is what its PID namespace's first process measured of its process tree (the",
      "observation's `cliUse`, 10 ms ticks); witness's own is the rest of the `witness probe`",
      "process's. The load is the median of the 1-minute load average at the end of each of the",
      "CLI's runs. Target: ratio ≤ 1.25.",
      `Load average (1 min) when the run started: ${load.toFixed(2)}. ${compileCacheNote()}`,
      "",
      "| CLI | bare (ms) | `witness probe` (ms) | ratio | bare CPU (ms) | `witness probe` CPU (ms) | of it the CLI's own (ms) | witness's own (ms) | witness CPU over bare (ms) | load |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows,
      "",
      "witness's own CPU in the same `witness probe` runs, phase by phase (the observation's",
      "`witnessUse`: the witness process's CPU and its helper processes' in each phase, medians): the",
      "cell, the CLI's install check, the runtime and the network namespace (prepare); the fake server's",
      "start (server); the launch's preparation, the sandbox view and the containment check, which a",
      "process makes once (launch); while the CLI runs: the fake server answering it, the launch",
      "wrappers (spawn); the transcript and the observation (observe); the server, the namespace and",
      "the view taken down (cleanup). Outside the spawn: the rest of the process, node's own start,",
      "module loading, the command's parsing and its exit. Target: 40 ms per warm spawn.",
      "",
      `| CLI | ${SPAWN_PHASES.join(" | ")} | in the spawn | outside the spawn |`,
      `|---|${SPAWN_PHASES.map(() => "---:").join("|")}|---:|---:|`,
      ...phaseRows,
      "",
      `\`witness run --all --out <temp>\` in this repository, ${RUN_ALL_ROUNDS} round(s), against the CPU-bound ideal:`,
      "the CLIs' own CPU, summed from every spawn's measured `cliUse` in the records the run wrote,",
      "divided by the cores. witness's CPU per spawn is the whole process's (bash's `times`) less the",
      "CLIs', over the spawns. Target: ratio ≤ 1.10.",
      "",
      ...runAll,
    ].join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

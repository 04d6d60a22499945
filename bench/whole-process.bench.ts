// What a user pays, as whole processes: `witness probe` against the bare CLI per CLI, and
// `witness run --all` against the CPU-bound ideal (the CLIs' own CPU ÷ cores).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";

import { PINNED } from "../clis/pinned.js";
import { buildChildEnv } from "../core/child-env.js";
import type { ProbeCliName } from "../probes/contracts/probe-spec.js";
import { ensureCli } from "../probes/vendor-cache.js";
import { BUILT_CLI, builtCli, WITNESS_ROOT } from "../test/support/built-cli.js";
import { median } from "./median.js";
import { ARGV, bareRunners, writeProbeInputs } from "./probe.bench.js";
import { underBash } from "./under-bash.js";

// WITNESS_BENCH_RUNS shrinks a trial run of the bench itself; WITNESS_BENCH_RUN_ALL=0 leaves out
// the `witness run --all` rows (they need every protocol's CLI version in the vendor cache).
const ROUNDS = Number(process.env.WITNESS_BENCH_RUNS ?? 5);
const PER_ROUND = 2;
const RUN_ALL_ROUNDS = Math.min(3, ROUNDS);
const NAMES: ProbeCliName[] = ["claude-code", "codex"];

interface Timed {
  wallMs: number;
  /** User + system CPU of the process and every child it waited for (bash's `times`). */
  cpuMs: number;
}

// One process under bash: wall time and the CPU of it and everything it started.
async function timed(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  okExits: readonly number[] = [0],
): Promise<Timed> {
  const { wallMs, cpuMs } = await underBash(file, args, env, cwd, { okExits });
  return { wallMs, cpuMs };
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
  const probeArgs = [BUILT_CLI, "probe", "--cli", `${name}@${version}`, "--fixture", fx];
  return {
    bare: async () => {
      await bare.resetHome();
      const c = bare.command;
      return timed(c.file, c.args, c.env, c.cwd);
    },
    probe: () =>
      timed(
        process.execPath,
        [...probeArgs, "--script", sc, "--", ...ARGV[name]],
        // witness builds each spawn's environment itself, from the user's.
        buildChildEnv({ parent: process.env }),
        dir,
      ),
    close: bare.close,
  };
}

interface Samples {
  bare: Timed[];
  probe: Timed[];
  ratios: number[];
}

async function probeRows(dir: string): Promise<{ rows: string[]; bareCpu: Map<string, number> }> {
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
  const bareCpu = new Map<string, number>();
  for (const [name, s] of got) {
    const bw = median(s.bare.map((t) => t.wallMs));
    const pw = median(s.probe.map((t) => t.wallMs));
    const bc = median(s.bare.map((t) => t.cpuMs));
    const pc = median(s.probe.map((t) => t.cpuMs));
    bareCpu.set(name, bc);
    rows.push(
      `| ${name}@${PINNED[name].version} | ${bw.toFixed(0)} | ${pw.toFixed(0)} | ${median(s.ratios).toFixed(2)} | ${bc.toFixed(0)} | ${pc.toFixed(0)} | ${(pc - bc).toFixed(0)} |`,
    );
  }
  return { rows, bareCpu };
}

// The spawns a finished run made, per CLI name, read from the records it wrote.
async function spawnsByCli(out: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const f of (await readdir(out)).filter((n) => n.endsWith(".json"))) {
    const r = JSON.parse(await readFile(join(out, f), "utf8")) as {
      cli: { name: string };
      arms: { spawns: unknown[] }[];
    };
    const n = r.arms.reduce((sum, a) => sum + a.spawns.length, 0);
    counts.set(r.cli.name, (counts.get(r.cli.name) ?? 0) + n);
  }
  return counts;
}

async function runAllRows(dir: string, bareCpu: Map<string, number>): Promise<string[]> {
  const cores = os.availableParallelism();
  const runs: Timed[] = [];
  let counts = new Map<string, number>();
  for (let round = 0; round < RUN_ALL_ROUNDS; round++) {
    const out = await mkdtemp(join(dir, "run-all-"));
    try {
      runs.push(
        await timed(
          process.execPath,
          [BUILT_CLI, "run", "--all", "--out", out],
          buildChildEnv({ parent: process.env }),
          WITNESS_ROOT,
          // 1 is a refuted verdict: the shipped set keeps the claims the CLIs refuted as results.
          [0, 1],
        ),
      );
      counts = await spawnsByCli(out);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }
  // The CLIs' own CPU: each CLI's bare median above, or measured here for the CLIs the probe rows
  // leave out, times its spawns in the run.
  for (const name of counts.keys()) {
    if (bareCpu.has(name) || !(name in PINNED)) continue;
    const pair = await pairFor(name as ProbeCliName, dir);
    try {
      await pair.bare();
      const xs: number[] = [];
      for (let i = 0; i < PER_ROUND + 1; i++) xs.push((await pair.bare()).cpuMs);
      bareCpu.set(name, median(xs));
    } finally {
      await pair.close();
    }
  }
  let ownCpu = 0;
  const parts: string[] = [];
  for (const [name, n] of counts) {
    const cpu = bareCpu.get(name) ?? NaN;
    ownCpu += n * cpu;
    parts.push(`${name} ${n} × ${cpu.toFixed(0)} ms`);
  }
  const ideal = ownCpu / cores;
  const wall = median(runs.map((r) => r.wallMs));
  const cpu = median(runs.map((r) => r.cpuMs));
  const spawns = [...counts.values()].reduce((a, b) => a + b, 0);
  return [
    `| \`witness run --all\` (${spawns} spawns, --jobs ${cores}) | ${(wall / 1000).toFixed(1)} | ${(ideal / 1000).toFixed(1)} | ${(wall / ideal).toFixed(2)} | ${(cpu / 1000).toFixed(1)} | ${(ownCpu / 1000).toFixed(1)} | ${((cpu - ownCpu) / spawns).toFixed(0)} |`,
    "",
    `The CLIs' own CPU: ${parts.join(", ")} (each CLI's bare run of this bench, at its pinned version, stands for its spawns in the run). That stand-in is an estimate: a protocol's spawn that is refused, denied or ends after one turn costs the CLI less than the bench's two-turn script, so the ideal overstates the CLIs' share and the per-spawn figure can come out below zero; witness's own CPU per spawn is measured directly in the spawn-phases section.`,
  ];
}

/** Runs both comparisons and returns the Markdown section. */
export default async function benchWholeProcess(): Promise<string> {
  builtCli(); // refuses a stale dist/
  const load = os.loadavg()[0] ?? NaN;
  const dir = await mkdtemp(join(os.tmpdir(), "witness-bench-whole-"));
  try {
    const { rows, bareCpu } = await probeRows(dir);
    const runAll =
      process.env.WITNESS_BENCH_RUN_ALL === "0"
        ? ["| `witness run --all` | not run (WITNESS_BENCH_RUN_ALL=0) | | | | | |"]
        : await runAllRows(dir, bareCpu);
    return [
      "## whole-process: what a user pays, `witness probe` and `witness run --all`",
      "",
      `\`witness probe\` (\`node dist/cli/main.js probe --cli … --fixture … --script … -- <argv>\`, the`,
      "fixture, script and argv of bench/probe.bench.ts) against the bare CLI binary with the same env",
      `from a fresh copy of the cell's HOME, against a fake server in the bench process: ${ROUNDS} rounds ×`,
      `${PER_ROUND} runs of each, alternating, the order flipped every round. Each is one process under`,
      "bash, whose `times` gives the CPU of the process and the children it waited for. The ratio is",
      "the median over rounds of (median witness ÷ median bare) wall time within the round; the bare",
      "CPU leaves out the fake server, which witness runs in its own process. Target: ratio ≤ 1.25.",
      `Load average (1 min) when the run started: ${load.toFixed(2)}.`,
      "",
      "| CLI | bare (ms) | `witness probe` (ms) | ratio | bare CPU (ms) | witness CPU (ms) | witness CPU over bare (ms) |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...rows,
      "",
      `\`witness run --all --out <temp>\` in this repository, median of ${RUN_ALL_ROUNDS}, against the CPU-bound ideal:`,
      "the CLIs' own CPU for the run's spawns divided by the cores. Target: ratio ≤ 1.10.",
      "",
      "| run | wall (s) | ideal (s) | ratio | CPU (s) | the CLIs' own CPU (s) | witness CPU per spawn (ms) |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...runAll,
    ].join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Cost of a probe (runProbe: cell, git, fake server, netns, observation) over the bare CLI run by hand.
import { existsSync } from "node:fs";
import { cp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";

import { Bench } from "tinybench";

import { PINNED } from "../clis/pinned.js";
import { buildChildEnv } from "../core/child-env.js";
import { runProcess } from "../core/exec.js";
import { cellSentinelPath, createCell, removeCell } from "../probes/cell/cell.js";
import { resolveSentinelsDeep } from "../probes/cell/markers.js";
import { fixtureSchema } from "../probes/contracts/fixture.js";
import type { ProbeCliName, ProbeSpec } from "../probes/contracts/probe-spec.js";
import { driverFor } from "../probes/drivers/index.js";
import { driverResponder } from "../probes/drivers/responder.js";
import { startFakeServer } from "../probes/fake/server.js";
import { netnsTools, releaseWarmSlot } from "../probes/isolation/netns.js";
import { runProbe } from "../probes/run-probe.js";
import { launchOn, pathFor, runtimeFor } from "../probes/runtime.js";
import { ensureCli } from "../probes/vendor-cache.js";
import { median } from "./median.js";

const ROUNDS = 5;
const PER_ROUND = 3;

/** The fixture every probe bench plants. */
export const fixture = fixtureSchema.parse({
  // Trusted, as the benches measured before the default became untrusted (ADR 0011): headless
  // Gemini CLI refuses to start in an untrusted folder.
  trust: true,
  files: [{ at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS}}" }],
});
/** The fake model's script of every probe bench. */
export const script: ProbeSpec["script"] = {
  turns: [{ calls: [{ shell: "touch {{sentinel:RAN}}" }] }],
  final: "done",
  classifier: "allow",
};
/** Each CLI's argv in the probe benches. */
export const ARGV: Record<ProbeCliName, string[]> = {
  "claude-code": ["-p", "go", "--allowedTools", "Bash"],
  codex: ["exec", "--sandbox", "workspace-write", "go"],
  gemini: ["-m", "witness-fake-model", "--approval-mode", "yolo", "-p", "go"],
  qwen: ["-m", "witness-fake-model", "--approval-mode", "yolo", "-p", "go"],
  pi: ["-p", "go"],
  opencode: ["run", "--title", "witness", "go"],
  copilot: ["--allow-all-tools", "--prompt=go"],
  cline: ["--", "go now"],
  kilo: ["run", "--auto", "go"],
  kimi: ["-p", "go"],
};

/**
 * The bare runs: one prepared cell and fake server, the CLI spawned directly with the same env.
 * "fresh HOME" starts each run from a copy of the cell's initial HOME, as every probe does (a CLI's
 * first run in a new HOME does set-up work of its own); "warm HOME" reuses one HOME throughout.
 */
/** Writes the bench's fixture and script where `witness probe --fixture/--script` reads them. */
export async function writeProbeInputs(dir: string): Promise<{ fx: string; sc: string }> {
  const fx = join(dir, "fixture.json");
  const sc = join(dir, "script.json");
  await writeFile(fx, JSON.stringify(fixture));
  await writeFile(sc, JSON.stringify(script));
  return { fx, sc };
}

export async function bareRunners(name: ProbeCliName, bin: string) {
  const baseEnv = buildChildEnv({ parent: process.env });
  const driver = driverFor(name);
  const cell = await createCell({
    fixture,
    nonce: "bench",
    trust: driver.trustWorkspace,
    ...(driver.prepareCell === undefined ? {} : { prepare: driver.prepareCell }),
    baseEnv,
  });
  const resolved = resolveSentinelsDeep(script, (name) => cellSentinelPath(cell, name));
  const { version } = PINNED[name];
  const server = await startFakeServer(driverResponder(driver, resolved, version));
  const launched = driver.launch({ argv: ARGV[name], baseUrl: server.url, version, cell });
  // The Node the CLI declares, as runProbe picks it (Kimi Code 2.x needs >= 22.19): the bare run
  // starts on the same one, with its directory first on PATH.
  const choice = await runtimeFor(bin);
  const cellEnv = { ...cell.env, ...launched.env };
  const path = pathFor(choice.runtime, cellEnv.PATH ?? process.env.PATH ?? "", existsSync);
  const env = buildChildEnv({ parent: process.env, set: { ...cellEnv, PATH: path } });
  // What runProbe writes once the endpoint is known (pi's provider, opencode's seeded config
  // directories) belongs to the initial HOME every fresh run starts from.
  await driver.prepare?.({ cell, env, baseUrl: server.url, version });
  const template = join(cell.root, "home-template");
  await cp(cell.home, template, { recursive: true });
  const { file, args } = launchOn(choice, bin, launched.args);
  const spawn = async (runEnv: Record<string, string>) => {
    const r = await runProcess({
      file,
      args,
      env: runEnv,
      cwd: cell.workspace,
      timeoutMs: 60_000,
    });
    if (r.exitCode !== 0) throw new Error(`bare ${name} exited ${r.exitCode}: ${r.stderr}`);
  };
  const resetHome = async () => {
    await rm(cell.home, { recursive: true, force: true });
    await cp(template, cell.home, { recursive: true });
  };
  return {
    warm: () => spawn(env),
    fresh: async () => {
      await resetHome();
      await spawn(env);
    },
    /** The bare command itself, for a caller that times it its own way after `resetHome`. */
    command: { file, args, env, cwd: cell.workspace },
    resetHome,
    close: async () => {
      await server.close();
      await removeCell(cell);
    },
  };
}

function probeTask(name: ProbeCliName, noNetns: boolean) {
  return async () => {
    const o = await runProbe(
      { cli: PINNED[name], fixture, script, launch: { argv: ARGV[name] }, timeoutMs: 60_000 },
      { noNetns },
    );
    if (o.faults.length > 0 || o.exitCode !== 0)
      throw new Error(`probe ${name}: ${o.faults.join("; ")}`);
  };
}

/** Runs the benchmark for Claude Code and Codex and returns its Markdown section. */
export default function benchProbe(): Promise<string> {
  return benchProbeOf(["claude-code", "codex"], "probe: cost of runProbe over the bare CLI");
}

/**
 * Runs the benchmark for `names` and returns a Markdown section under `title` (each group of
 * CLIs is its own section, so one group can be re-measured without re-running the others).
 */
export async function benchProbeOf(
  names: ProbeCliName[],
  title: string,
  size: { rounds: number; perRound: number } = { rounds: ROUNDS, perRound: PER_ROUND },
): Promise<string> {
  const netns = (await netnsTools()) !== null;
  const tasks: { name: string; fn: () => Promise<void> }[] = [];
  const closers: (() => Promise<void>)[] = [];
  // Rounds alternate the cases, so load from other processes hits bare runs and probes alike;
  // each round's ratio compares runs made within seconds of each other.
  const samples = new Map<string, number[]>();
  const ratios = new Map<string, number[]>();
  const load = os.loadavg()[0] ?? NaN;
  try {
    for (const name of names) {
      const { bin } = await ensureCli(PINNED[name]);
      const bare = await bareRunners(name, bin);
      closers.push(bare.close);
      tasks.push({ name: `${name}: bare CLI`, fn: bare.fresh });
      tasks.push({ name: `${name}: bare CLI, warm HOME`, fn: bare.warm });
      tasks.push({ name: `${name}: runProbe, loopback-config`, fn: probeTask(name, true) });
      if (netns) tasks.push({ name: `${name}: runProbe, netns`, fn: probeTask(name, false) });
    }
    for (const task of tasks) await task.fn(); // warm-up: page cache, vendor cache, first namespace
    for (let round = 0; round < size.rounds; round += 1) {
      const bench = new Bench({
        iterations: size.perRound,
        time: 0,
        warmupIterations: 0,
        retainSamples: true,
      });
      const order = round % 2 === 0 ? tasks : [...tasks].reverse();
      for (const task of order) bench.add(task.name, task.fn);
      await bench.run();
      const roundMedian = new Map<string, number>();
      for (const task of bench.tasks) {
        if (task.result.state === "errored")
          throw new Error(`${task.name}: errored: ${String(task.result.error)}`);
        if (task.result.state !== "completed")
          throw new Error(`${task.name}: ${task.result.state}`);
        const got = [...(task.result.latency.samples ?? [])];
        samples.set(task.name, [...(samples.get(task.name) ?? []), ...got]);
        roundMedian.set(task.name, median(got));
      }
      for (const name of names) {
        const bare = roundMedian.get(`${name}: bare CLI`) ?? NaN;
        for (const mode of ["loopback-config", "netns"]) {
          const key = `${name}: runProbe, ${mode}`;
          const probe = roundMedian.get(key);
          if (probe !== undefined) ratios.set(key, [...(ratios.get(key) ?? []), probe / bare]);
        }
      }
    }
  } finally {
    await releaseWarmSlot();
    for (const close of closers) await close();
  }
  const lines = [
    `## ${title}`,
    "",
    `${size.rounds} rounds × ${size.perRound} runs of each case, cases alternating between rounds (after one`,
    "warm-up run each). Script: one shell call that creates a sentinel, then a final answer; fixture:",
    "one CLAUDE.md with a marker (argv per CLI in bench/probe.bench.ts). The bare run spawns the cached binary through `runProcess` against",
    "the same fake server with the same env, in a cell prepared once, from a fresh copy of the cell's",
    "initial HOME each time (the warm-HOME column reuses one HOME: the CLI's own first-run set-up",
    "in a new HOME is the difference); runProbe builds a fresh cell",
    "(mkdtemp, files, `git init` + add + commit in one shell), starts flushing it to disk (`sync -f`,",
    "from the PID namespace's first process where there is one) while the CLI starts, starts the fake",
    "server, enters a fresh network namespace (netns rows; its loopback bridged by socat where",
    "installed, else by a node forwarder), reads the transcript and starts removing the cell. The ratio is the median over rounds of",
    "(median probe ÷ median bare) within the round. Target: ratio ≤ 1.10.",
    `Load average (1 min) when the run started: ${load.toFixed(2)}. ${compileCacheNote()}`,
    "",
    "| CLI | bare, warm HOME (ms) | bare, fresh HOME (ms) | runProbe (ms) | ratio | isolation |",
    "|---|---:|---:|---:|---:|---|",
  ];
  for (const name of names) {
    const bare = median(samples.get(`${name}: bare CLI`) ?? []);
    const warm = median(samples.get(`${name}: bare CLI, warm HOME`) ?? []);
    for (const mode of netns ? ["loopback-config", "netns"] : ["loopback-config"]) {
      const key = `${name}: runProbe, ${mode}`;
      const probe = median(samples.get(key) ?? []);
      const ratio = median(ratios.get(key) ?? []);
      lines.push(
        `| ${name}@${PINNED[name].version} | ${warm.toFixed(0)} | ${bare.toFixed(0)} | ${probe.toFixed(0)} | ${ratio.toFixed(2)} | ${mode} |`,
      );
    }
  }
  return lines.join("\n");
}

/**
 * Whether runProbe gave a Node 22 CLI witness's compile cache, which the bare run never has: on,
 * the ratio counts the cache's saving against witness's cost; off, both sides compile alike.
 */
export function compileCacheNote(): string {
  return process.env.WITNESS_NO_COMPILE_CACHE === "1"
    ? "Compile cache off (`WITNESS_NO_COMPILE_CACHE=1`): a CLI on Node 22 compiles its code under witness as it does bare."
    : "Compile cache on (the default): a CLI on Node 22 reads witness's compile cache under witness and not in the bare run.";
}

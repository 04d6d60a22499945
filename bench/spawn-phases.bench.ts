// Where a probe spawn's witness CPU goes, phase by phase: each phase of runProbe run on its own and
// repeated, with witness's own CPU (process.cpuUsage, every thread) and its helper processes' (the
// rusage of the children it waited for, /proc/self/stat), and the processes one `witness probe`
// starts besides the CLI's own (strace, when installed).
import { readFileSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";

import { PINNED } from "../clis/pinned.js";
import { buildChildEnv } from "../core/child-env.js";
import { runProcess } from "../core/exec.js";
import {
  type Cell,
  cellSentinelPath,
  cellSentinels,
  createCell,
  flushCell,
  removeCell,
} from "../probes/cell/cell.js";
import { resolveSentinelsDeep } from "../probes/cell/markers.js";
import type { ProbeCliName } from "../probes/contracts/probe-spec.js";
import { sentinelNames } from "../probes/contracts/script.js";
import { driverFor } from "../probes/drivers/index.js";
import { driverResponder } from "../probes/drivers/responder.js";
import { startFakeServer } from "../probes/fake/server.js";
import { containment } from "../probes/isolation/contain.js";
import {
  defaultForwarder,
  type ForwarderKind,
  netnsTools,
  releaseWarmSlot,
  startSlot,
} from "../probes/isolation/netns.js";
import { observe } from "../probes/observe/observe.js";
import { runProbe } from "../probes/run-probe.js";
import { ensureCli } from "../probes/vendor-cache.js";
import { BUILT_CLI, builtCli } from "../test/support/built-cli.js";
import { median } from "./median.js";
import { ARGV, bareRunners, fixture, script, writeProbeInputs } from "./probe.bench.js";
import { describeProcess, helperProcesses, parseProcessTree } from "./process-tree.js";
import { underBash } from "./under-bash.js";

const N = Number(process.env.WITNESS_BENCH_RUNS ?? 20);
const E2E = Math.max(2, Math.round(N / 2));
const NAMES: ProbeCliName[] = ["claude-code", "codex"];
// Linux reports children's CPU in clock ticks; USER_HZ is 100 on every architecture Node runs on.
const TICK_MS = 10;

interface Cpu {
  self: number;
  children: number;
}

function cpuNow(): Cpu {
  const { user, system } = process.cpuUsage();
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const children = (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  return { self: (user + system) / 1000, children };
}

/** Mean CPU per run of `fn` over `n` runs (`setup` before and `teardown` after each, not counted). */
async function measure<T>(
  n: number,
  setup: () => Promise<T>,
  fn: (input: T) => Promise<void>,
  teardown: (input: T) => Promise<void> = () => Promise.resolve(),
): Promise<Cpu> {
  let self = 0;
  let children = 0;
  for (let i = 0; i < n; i++) {
    const input = await setup();
    const before = cpuNow();
    await fn(input);
    const after = cpuNow();
    await teardown(input);
    self += after.self - before.self;
    children += after.children - before.children;
  }
  return { self: self / n, children: children / n };
}

// Lets a child that has just exited be reaped, so its CPU lands in the window that started it.
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

const nothing = () => Promise.resolve(undefined);
const ms = (x: number) => x.toFixed(1);
const total = (c: Cpu) => c.self + c.children;
const row = (phase: string, c: Cpu) =>
  `| ${phase} | ${ms(c.self)} | ${ms(c.children)} | ${ms(c.self + c.children)} |`;

function cellOf(name: ProbeCliName): Promise<Cell> {
  const driver = driverFor(name);
  return createCell({
    fixture,
    nonce: "bench",
    trust: (paths) => driver.trustWorkspace(paths, PINNED[name].version),
    ...(driver.prepareCell === undefined ? {} : { prepare: driver.prepareCell }),
    baseEnv: buildChildEnv({ parent: process.env }),
  });
}

/** A bench's rows, and the CPU of those phases a probe spawn goes through. */
interface Phases {
  rows: string[];
  spawnMs: number;
}

// The phases that do not depend on the CLI: the namespace, the fake server, the launch wrappers.
async function sharedRows(): Promise<Phases> {
  const rows: string[] = [];
  let spawnMs = 0;
  const tools = await netnsTools();
  await releaseWarmSlot();
  const responder = driverResponder(
    driverFor("claude-code"),
    script,
    PINNED["claude-code"].version,
  );
  if (tools !== null) {
    const kinds: ForwarderKind[] = tools.socat === null ? ["node"] : ["socat", "node"];
    for (const forwarder of kinds) {
      const c = await measure(N, nothing, async () => {
        const slot = await startSlot(tools, forwarder);
        await slot.release();
        await slot.stopped;
      });
      const usedByProbes = forwarder === defaultForwarder(tools);
      if (usedByProbes) spawnMs += total(c);
      const used = usedByProbes ? ", the one probes use" : "";
      rows.push(row(`network namespace, ${forwarder} forwarder (start, stop${used})`, c));
    }
  }
  const server = await measure(N, nothing, async () => {
    const started = await startFakeServer(responder);
    await started.close();
  });
  spawnMs += total(server);
  rows.push(row("fake server (start, close; no traffic)", server));
  const contained = await containment();
  const bare = await measure(N, nothing, async () => {
    await runProcess({ file: "/bin/true", args: [], env: {}, cwd: "/" });
  });
  const wrapped = await measure(
    N,
    async () => (tools === null ? null : startSlot(tools)),
    async (slot) => {
      // As runProbe launches: the PID namespace's first process also starts the cell's flush.
      const inner = contained.wrap("/bin/true", [], os.tmpdir());
      const launch = slot === null ? inner : slot.wrap(inner.file, inner.args);
      await runProcess({
        ...launch,
        env: {},
        cwd: "/",
        processGroup: contained.kind === "process-group",
      });
    },
    async (slot) => {
      await slot?.release();
      await slot?.stopped;
    },
  );
  const wrappers = { self: wrapped.self - bare.self, children: wrapped.children - bare.children };
  spawnMs += total(wrappers);
  const flush = contained.flushes ? ", the cell's flush started inside" : "";
  rows.push(
    row(
      `launch wrappers (${tools === null ? "" : "nsenter, "}${contained.kind}${flush}) around /bin/true, over a bare /bin/true`,
      wrappers,
    ),
  );
  return { rows, spawnMs };
}

async function cliRows(name: ProbeCliName): Promise<Phases> {
  const rows: string[] = [];
  const { flushes } = await containment();
  const driver = driverFor(name);
  const { version } = PINNED[name];
  const { bin } = await ensureCli(PINNED[name]);
  const made: Cell[] = [];
  const setUp = await measure(N, nothing, async () => void made.push(await cellOf(name)));
  rows.push(row(`${name}: cell set-up (mkdtemp, files, git, trust)`, setUp));
  const flushed = await measure(N, () => cellOf(name), flushCell, removeCell);
  const where = flushes ? "; probes start it in the launch instead" : "";
  rows.push(
    row(`${name}: cell flush as a process of witness's own (\`sync -f\`${where})`, flushed),
  );
  for (const c of made) await removeCell(c);

  // One real spawn in a cell, then its transcript read and observation repeated on what it left.
  const cell = await cellOf(name);
  const resolved = resolveSentinelsDeep(script, (s) => cellSentinelPath(cell, s));
  const server = await startFakeServer(driverResponder(driver, resolved, version));
  const launched = driver.launch({ argv: ARGV[name], baseUrl: server.url, version, cell });
  const env = buildChildEnv({ parent: process.env, set: { ...cell.env, ...launched.env } });
  await driver.prepare?.({ cell, env, baseUrl: server.url, version });
  const result = await runProcess({
    file: bin,
    args: launched.args,
    env,
    cwd: cell.cwd,
    timeoutMs: 60_000,
  });
  await server.close();
  const observed = await measure(N, nothing, async () => {
    const transcript = await driver.readTranscript(env, {
      markers: cell.markers.map((m) => m.value),
      stdout: result.stdout,
      stderr: result.stderr,
    });
    observe({
      driver,
      requests: server.requests,
      markers: cell.markers,
      sentinels: cellSentinels(cell, sentinelNames(script)),
      transcript,
      script,
    });
  });
  rows.push(row(`${name}: transcript read and observation`, observed));
  // Removal of a cell the CLI has written into: copies of this one.
  const copies = await mkdtemp(join(os.tmpdir(), "witness-bench-phases-"));
  let k = 0;
  const removed = await measure(
    N,
    async () => {
      const root = join(copies, String(k++));
      await cp(cell.root, root, { recursive: true, verbatimSymlinks: true });
      return { ...cell, root };
    },
    removeCell,
  );
  rows.push(row(`${name}: cell removal (after the CLI wrote into it)`, removed));
  await rm(copies, { recursive: true, force: true });
  await removeCell(cell);
  const spawnMs = total(setUp) + (flushes ? 0 : total(flushed)) + total(observed) + total(removed);
  return { rows, spawnMs };
}

// runProbe end to end in a warm process (module loading and the once-per-process checks are done)
// against the bare CLI spawned by hand, alternating.
async function endToEnd(name: ProbeCliName): Promise<{ probe: Cpu; bare: Cpu }> {
  const { bin } = await ensureCli(PINNED[name]);
  const bare = await bareRunners(name, bin);
  const spec = {
    cli: PINNED[name],
    fixture,
    script,
    launch: { argv: ARGV[name] },
    timeoutMs: 60_000,
  };
  const probe = async () => {
    const o = await runProbe(spec);
    if (o.faults.length > 0) throw new Error(`probe ${name}: ${o.faults.join("; ")}`);
  };
  try {
    await bare.fresh();
    await probe();
    const p: Cpu[] = [];
    const b: Cpu[] = [];
    // Each window waits for the children the spawn leaves exiting (its namespace's forwarder,
    // the cell's removal): their CPU belongs to it. The namespace prepared for the next spawn is
    // counted in the window of the spawn that uses it.
    for (let i = 0; i < E2E; i++) {
      b.push(
        await measure(1, bare.resetHome, async () => void (await bare.warm(), await settle())),
      );
      p.push(await measure(1, nothing, async () => void (await probe(), await settle())));
    }
    const mean = (xs: Cpu[]) => ({
      self: xs.reduce((s, x) => s + x.self, 0) / xs.length,
      children: xs.reduce((s, x) => s + x.children, 0) / xs.length,
    });
    return { probe: mean(p), bare: mean(b) };
  } finally {
    await releaseWarmSlot();
    await bare.close();
  }
}

const PRELOAD = join(import.meta.dirname, "fixtures", "cpu-at-first-spawn-and-exit.cjs");

interface WholeCpu {
  /** The process and every child it waited for (bash's `times`). */
  total: number;
  /** The process's own CPU at its first child process, and at exit (the preload's line). */
  firstSpawn: number;
  exit: number;
}

async function wholeCpu(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<WholeCpu> {
  const r = await underBash(file, args, env, cwd, { timeoutMs: 120_000 });
  const line = /witness-cpu (.*)/.exec(r.stderr)?.[1];
  const own =
    line === undefined
      ? null
      : (JSON.parse(line) as { firstSpawnMs: number | null; exitMs: number });
  return { total: r.cpuMs, firstSpawn: own?.firstSpawnMs ?? NaN, exit: own?.exitMs ?? NaN };
}

// `witness probe` as a whole process, alternating with the bare CLI and with `node -e 0`.
async function wholeRow(name: ProbeCliName, dir: string): Promise<string> {
  const { bin } = await ensureCli(PINNED[name]);
  const bare = await bareRunners(name, bin);
  const { fx, sc } = await writeProbeInputs(dir);
  const env = buildChildEnv({ parent: process.env });
  const probeArgs = [
    "--require",
    PRELOAD,
    BUILT_CLI,
    "probe",
    "--cli",
    `${name}@${PINNED[name].version}`,
  ];
  const runs = { bare: [] as number[], node: [] as WholeCpu[], probe: [] as WholeCpu[] };
  try {
    for (let i = 0; i <= E2E; i++) {
      await bare.resetHome();
      const c = bare.command;
      const b = await wholeCpu(c.file, c.args, c.env, c.cwd);
      const n = await wholeCpu(process.execPath, ["--require", PRELOAD, "-e", "0"], env, dir);
      const p = await wholeCpu(
        process.execPath,
        [...probeArgs, "--fixture", fx, "--script", sc, "--", ...ARGV[name]],
        env,
        dir,
      );
      if (i === 0) continue; // warm-up: page cache
      runs.bare.push(b.total);
      runs.node.push(n);
      runs.probe.push(p);
    }
  } finally {
    await bare.close();
  }
  // The node process's own teardown after its exit event is in `total − exit`, for witness too.
  const nodeTotal = median(runs.node.map((r) => r.total));
  const nodeExit = median(runs.node.map((r) => r.exit));
  const bareCpu = median(runs.bare);
  const total = median(runs.probe.map((r) => r.total));
  const startUp = median(runs.probe.map((r) => r.firstSpawn)) - nodeExit;
  const after = median(runs.probe.map((r) => r.exit - r.firstSpawn));
  const helpers = median(runs.probe.map((r) => r.total - r.exit)) - (nodeTotal - nodeExit);
  const cells = [
    bareCpu,
    total,
    nodeTotal,
    startUp,
    after,
    helpers,
    helpers - bareCpu,
    total - bareCpu,
  ];
  return `| ${name}@${PINNED[name].version} | ${cells.map((x) => x.toFixed(0)).join(" | ")} |`;
}

// The processes one `witness probe` starts besides the CLI and what the CLI starts.
async function helperList(name: ProbeCliName, dir: string): Promise<string | null> {
  const strace = await runProcess({ file: "strace", args: ["-V"], env: {}, cwd: "/" });
  if (strace.exitCode !== 0) return null;
  const { bin } = await ensureCli(PINNED[name]);
  const fx = join(dir, "fixture.json");
  const sc = join(dir, "script.json");
  await writeFile(fx, JSON.stringify(fixture));
  await writeFile(sc, JSON.stringify(script));
  const log = join(dir, `${name}.strace`);
  const args = [
    BUILT_CLI,
    "probe",
    "--cli",
    `${name}@${PINNED[name].version}`,
    "--fixture",
    fx,
    "--script",
    sc,
    "--",
    ...ARGV[name],
  ];
  const r = await runProcess({
    file: "strace",
    args: [
      "-f",
      "-qq",
      "--pidns-translation",
      "-e",
      "trace=execve,clone,clone3,fork,vfork",
      "-o",
      log,
      process.execPath,
      ...args,
    ],
    env: buildChildEnv({ parent: process.env }),
    cwd: dir,
    timeoutMs: 120_000,
  });
  if (r.exitCode !== 0) throw new Error(`strace witness probe ${name}: ${r.stderr}`);
  const all = parseProcessTree(await readFile(log, "utf8"));
  const helpers = helperProcesses(all, (program) => program === bin);
  const counts = new Map<string, number>();
  for (const p of helpers) {
    const what = describeProcess(p, all);
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  const list = [...counts].map(([what, n]) => `${n} × \`${what}\``).join(", ");
  return `- ${name}: ${helpers.length} processes: ${list}`;
}

/** Runs every phase and returns the Markdown section. */
export default async function benchSpawnPhases(): Promise<string> {
  builtCli(); // refuses a stale dist/ (the strace rows run it)
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
  const dir = await mkdtemp(join(os.tmpdir(), "witness-bench-phases-"));
  try {
    const shared = await sharedRows();
    const phases = [...shared.rows];
    const e2e: string[] = [];
    for (const name of NAMES) {
      const own = await cliRows(name);
      phases.push(...own.rows);
      const { probe, bare } = await endToEnd(name);
      const over = probe.self + probe.children - bare.children;
      const known = shared.spawnMs + own.spawnMs;
      e2e.push(
        `| ${name}@${PINNED[name].version} | ${ms(bare.children)} | ${ms(probe.self)} | ${ms(probe.children)} | ${ms(over)} | ${ms(known)} | ${ms(over - known)} |`,
      );
    }
    const whole: string[] = [];
    for (const name of NAMES) whole.push(await wholeRow(name, dir));
    const helpers: string[] = [];
    for (const name of NAMES) {
      const line = await helperList(name, dir);
      if (line !== null) helpers.push(line);
    }
    return [
      "## spawn-phases: where a probe spawn's witness CPU goes",
      "",
      `Each phase of runProbe on its own, ${N} runs each (a spawn's ${E2E} runs), means. witness CPU`,
      "is `process.cpuUsage()` (every thread of the witness process); helpers' CPU is the rusage of",
      "the child processes it waited for (`/proc/self/stat` cutime + cstime, 10 ms ticks, hence",
      "the mean over many runs). Bench fixture, script and argv as in bench/probe.bench.ts.",
      `Load average (1, 5, 15 min) when the run started: ${load}.`,
      "",
      "| phase | witness CPU (ms) | helpers' CPU (ms) | total (ms) |",
      "|---|---:|---:|---:|",
      ...phases,
      "",
      "A whole spawn, runProbe in a process that has already made one (so module loading and the",
      "once-per-process checks are left out), alternating with the bare CLI spawned by hand in a",
      "fresh copy of the same HOME; witness over bare = the spawn's witness CPU plus its helpers'",
      "and the CLI's own under witness, less the bare CLI's. Target: ≤ 40 ms. The phases above are",
      "those a spawn goes through (the forwarder probes use, the fake server, the launch wrappers, the",
      "cell's set-up, flush where witness starts it, transcript and observation, removal); the rest is",
      "what no phase row isolates: the CLI's own launch through the exec seam (a fork of the witness",
      "process, a few ms), the fake server answering the CLI's requests (parsing their bodies, the",
      "forwarder carrying them), spec and observation checks, the child environment, and the CLI's",
      "own CPU under witness's environment against the bare run's.",
      "",
      "| CLI | bare CLI CPU (ms) | runProbe: witness CPU (ms) | runProbe: helpers' and CLI CPU (ms) | witness over bare (ms) | of which the phases above (ms) | the rest (ms) |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...e2e,
      "",
      `\`witness probe\` as a whole process (\`node dist/cli/main.js probe …\`), medians of ${E2E} runs`,
      "alternating with the bare CLI and with `node -e 0`, each under bash, whose `times` gives the CPU",
      "of the process and of every child it waited for. A preload",
      "(`bench/fixtures/cpu-at-first-spawn-and-exit.cjs`) notes the witness process's own CPU at its",
      "first child process and at exit, which splits the total into a node process's own cost",
      "(`node -e 0`, whole), witness's start-up over it (module loading, up to the first child: the",
      "start-up bench's figure), the witness process after its first child (the spawn, the",
      "once-per-process checks, the first run of code not yet compiled), and the helpers and the CLI",
      "(the children, less a node process's own teardown after its exit event).",
      "",
      "| CLI | bare CLI (ms) | `witness probe` (ms) | `node -e 0` (ms) | witness start-up over node (ms) | witness process after its first child (ms) | helpers and the CLI (ms) | helpers and the CLI over bare (ms) | total over bare (ms) |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...whole,
      "",
      "The processes one `witness probe` process starts besides the CLI and what the CLI starts",
      "(`strace -f` of `node dist/cli/main.js probe …`, by the programs each ran):",
      "",
      ...(helpers.length > 0 ? helpers : ["- not measured: strace is not installed"]),
    ].join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

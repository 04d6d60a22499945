// Cost of a probe (runProbe: cell, git, fake server, netns, observation) over the bare CLI run by hand.
import { Bench } from "tinybench";
import { buildChildEnv } from "../orchestrator/child-env.js";
import { runProcess } from "../orchestrator/exec.js";
import { createCell, removeCell } from "../probes/cell.js";
import { anthropicResponder } from "../probes/fake-anthropic.js";
import { openaiResponder } from "../probes/fake-openai.js";
import { startFakeServer } from "../probes/fake-server.js";
import { fixtureSchema } from "../probes/fixture.js";
import { netnsTools } from "../probes/isolation.js";
import { cliArgs, endpointEnv } from "../probes/launch.js";
import { resolveSentinelsDeep } from "../probes/markers.js";
import { PINNED } from "../probes/pinned.js";
import type { ProbeCliName, ProbeSpec } from "../probes/probe-spec.js";
import { runProbe } from "../probes/run-probe.js";
import { ensureCli } from "../probes/vendor-cache.js";

const ITERATIONS = 10;

const fixture = fixtureSchema.parse({
  files: [{ at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS}}" }],
});
const script: ProbeSpec["script"] = {
  turns: [{ calls: [{ shell: "touch {{sentinel:RAN}}" }] }],
  final: "done",
  classifier: "allow",
};
const ARGV: Record<ProbeCliName, string[]> = {
  "claude-code": ["-p", "go", "--allowedTools", "Bash"],
  codex: ["exec", "--sandbox", "workspace-write", "go"],
};

/** The bare run: one prepared cell and fake server, the CLI spawned directly with the same env. */
async function bareRunner(name: ProbeCliName, bin: string) {
  const baseEnv = buildChildEnv({ parent: process.env });
  const cell = await createCell({ fixture, nonce: "bench", cli: name, baseEnv });
  const resolved = resolveSentinelsDeep(script, cell.sentinelDir);
  const server = await startFakeServer(
    name === "claude-code" ? anthropicResponder(resolved) : openaiResponder(resolved),
  );
  const env = buildChildEnv({
    parent: process.env,
    set: { ...cell.env, ...endpointEnv(name, server.url) },
  });
  const args = cliArgs(name, ARGV[name], server.url);
  return {
    run: async () => {
      const r = await runProcess({ file: bin, args, env, cwd: cell.workspace, timeoutMs: 60_000 });
      if (r.exitCode !== 0) throw new Error(`bare ${name} exited ${r.exitCode}: ${r.stderr}`);
    },
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

/** Runs the benchmark and returns its Markdown section. */
export default async function benchProbe(): Promise<string> {
  const netns = (await netnsTools()) !== null;
  const bench = new Bench({ iterations: ITERATIONS, time: 0, warmupIterations: 1 });
  const closers: (() => Promise<void>)[] = [];
  const names: ProbeCliName[] = ["claude-code", "codex"];
  try {
    for (const name of names) {
      const { bin } = await ensureCli(PINNED[name]);
      const bare = await bareRunner(name, bin);
      closers.push(bare.close);
      bench.add(`${name}: bare CLI`, bare.run);
      bench.add(`${name}: runProbe, loopback-config`, probeTask(name, true));
      if (netns) bench.add(`${name}: runProbe, netns`, probeTask(name, false));
    }
    await bench.run();
  } finally {
    for (const close of closers) await close();
  }
  const median = new Map<string, number>();
  for (const task of bench.tasks) {
    if (task.result.state !== "completed") throw new Error(`${task.name}: ${task.result.state}`);
    median.set(task.name, task.result.latency.p50);
  }
  const lines = [
    "## probe: cost of runProbe over the bare CLI",
    "",
    `Median wall time of ${ITERATIONS} runs each (after one warm-up). Script: one shell call that`,
    "creates a sentinel, then a final answer; fixture: one CLAUDE.md with a marker. The bare run",
    "spawns the cached binary through `runProcess` against the same fake server with the same env, in",
    "a cell prepared once; runProbe builds a fresh cell (mkdtemp, files, `git init` + commit), starts",
    "the fake server, optionally enters a network namespace, parses the transcript and removes the",
    "cell. Target: ratio ≤ 1.10.",
    "",
    "| CLI | bare (ms) | runProbe (ms) | ratio | isolation |",
    "|---|---:|---:|---:|---|",
  ];
  for (const name of names) {
    const bare = median.get(`${name}: bare CLI`) ?? NaN;
    const modes = netns ? ["loopback-config", "netns"] : ["loopback-config"];
    for (const mode of modes) {
      const probe = median.get(`${name}: runProbe, ${mode}`) ?? NaN;
      lines.push(
        `| ${name}@${PINNED[name].version} | ${bare.toFixed(0)} | ${probe.toFixed(0)} | ${(probe / bare).toFixed(2)} | ${mode} |`,
      );
    }
  }
  return lines.join("\n");
}

// Added cost of a shim call over running the target directly (target: median ≤ 3 ms per call).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import { runProcess } from "../orchestrator/exec.js";
import { installShims } from "../shims/install.js";
import { findExecutable } from "../shims/find-executable.js";

const CALLS = 20;
// One sample = CALLS calls from one sh loop, so Node's spawn cost is paid once per sample, not per call.
const LOOP = `i=0
while [ $i -lt ${CALLS} ]; do
  if [ -n "$2" ]; then printf '%s' "$2" | "$1" -p "hello world" --model opus --output-format stream-json >/dev/null
  else "$1" -p "hello world" --model opus --output-format stream-json </dev/null >/dev/null; fi
  i=$((i + 1))
done`;

interface Row {
  name: string;
  program: string;
  stdin: string;
}

export default async function benchShims(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "witness-bench-shims-"));
  try {
    const target = findExecutable("true", { path: process.env.PATH ?? "/usr/bin:/bin" });
    if (target === undefined) throw new Error("no `true` on PATH to benchmark against");
    await installShims({
      dir,
      names: ["claude"],
      behaviour: { kind: "script", outcome: { stdout: "{}\n" } },
    });
    await installShims({
      dir,
      names: ["claude-pass"],
      behaviour: { kind: "pass-through", target },
    });
    const prompt = "Summarise the repository in one sentence.\n";
    const rows: Row[] = [
      { name: "direct target", program: target, stdin: "" },
      { name: "scripted shim", program: join(dir, "claude"), stdin: "" },
      { name: "pass-through shim", program: join(dir, "claude-pass"), stdin: "" },
      { name: "direct target, prompt on stdin", program: target, stdin: prompt },
      { name: "scripted shim, prompt on stdin", program: join(dir, "claude"), stdin: prompt },
      {
        name: "pass-through shim, prompt on stdin",
        program: join(dir, "claude-pass"),
        stdin: prompt,
      },
    ];
    const bench = new Bench({ iterations: 15, time: 1500, warmupIterations: 2 });
    for (const row of rows) {
      bench.add(row.name, async () => {
        const r = await runProcess({
          file: "/bin/sh",
          args: ["-c", LOOP, "loop", row.program, row.stdin],
          env: {},
          cwd: dir,
        });
        if (r.exitCode !== 0) throw new Error(`${row.name}: loop failed: ${r.stderr}`);
      });
    }
    await bench.run();
    const perCall = new Map<string, number>();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
      perCall.set(task.name, result.latency.p50 / CALLS);
    }
    const ms = (n: number | undefined) => (n === undefined ? "?" : n.toFixed(2));
    const added = (shim: string, direct: string) =>
      (perCall.get(shim) ?? NaN) - (perCall.get(direct) ?? NaN);
    const lines = [
      "## shims: added cost per call",
      "",
      `Median of ${bench.tasks[0]?.result.state === "completed" ? "≥15" : "?"} samples; each sample is ${CALLS} calls from one \`sh\` loop with`,
      `argv \`-p "hello world" --model opus --output-format stream-json\`, divided by ${CALLS}. The target is \`${target}\`.`,
      "Target: at most 3 ms added per call (median).",
      "",
      "| case | median per call (ms) | added over direct (ms) |",
      "|---|---:|---:|",
    ];
    for (const row of rows) {
      const direct = row.stdin === "" ? "direct target" : "direct target, prompt on stdin";
      const extra = row.name.startsWith("direct") ? "" : ms(added(row.name, direct));
      lines.push(`| ${row.name} | ${ms(perCall.get(row.name))} | ${extra} |`);
    }
    return lines.join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Added cost of a shim call over running the target directly (target: median ≤ 3 ms per call).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Bench } from "tinybench";

import { runProcess } from "../core/exec.js";
import { findExecutable } from "../shims/find-executable.js";
import { installShims } from "../shims/install.js";
import { median } from "./median.js";

const CALLS = 20;
const ROUNDS = 5;

// One sample = CALLS calls from one sh loop, so Node's spawn cost is paid once per sample, not per call.
const LOOP = `i=0
while [ $i -lt ${CALLS} ]; do
  if [ -n "$2" ]; then printf '%s' "$2" | "$1" -p "hello world" --model opus --output-format stream-json >/dev/null
  else "$1" -p "hello world" --model opus --output-format stream-json \${3:+--settings "$3"} </dev/null >/dev/null; fi
  i=$((i + 1))
done`;

interface Row {
  name: string;
  program: string;
  stdin: string;
  /** Give the call secrets to redact: a token in a header variable and in a JSON argv value. */
  secrets?: boolean;
}

const SECRET_ENV = { ANTHROPIC_CUSTOM_HEADERS: "Authorization: Bearer tok_abcdefgh12345678" };
const SECRET_SETTINGS = '{"env":{"API_TOKEN":"tok-1234567890"}}';

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
      {
        name: "scripted shim, secrets to redact",
        program: join(dir, "claude"),
        stdin: "",
        secrets: true,
      },
      { name: "direct target, prompt on stdin", program: target, stdin: prompt },
      { name: "scripted shim, prompt on stdin", program: join(dir, "claude"), stdin: prompt },
      {
        name: "pass-through shim, prompt on stdin",
        program: join(dir, "claude-pass"),
        stdin: prompt,
      },
    ];
    // Rounds pair each shim case with its direct case close in time, so a busy machine skews both.
    const perRound: Map<string, number>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bench = new Bench({ iterations: 6, time: 0, warmupIterations: 1 });
      for (const row of rows) {
        bench.add(row.name, async () => {
          const r = await runProcess({
            file: "/bin/sh",
            args: ["-c", LOOP, "loop", row.program, row.stdin, row.secrets ? SECRET_SETTINGS : ""],
            env: row.secrets ? SECRET_ENV : {},
            cwd: dir,
          });
          if (r.exitCode !== 0) throw new Error(`${row.name}: loop failed: ${r.stderr}`);
        });
      }
      await bench.run();
      const medians = new Map<string, number>();
      for (const task of bench.tasks) {
        const result = task.result;
        if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`);
        medians.set(task.name, result.latency.p50 / CALLS);
      }
      perRound.push(medians);
    }
    const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "?");
    const lines = [
      "## shims: added cost per call",
      "",
      `${ROUNDS} rounds of tinybench; in each, every case is sampled 6 times, a sample being ${CALLS} calls`,
      `from one \`sh\` loop with argv \`-p "hello world" --model opus --output-format stream-json\``,
      `(time / ${CALLS}). Figures are the median over rounds of each round's median; "added" is taken`,
      `within each round against the direct case. The target is \`${target}\`. Goal: at most 3 ms added.`,
      `The secrets case adds \`--settings ${SECRET_SETTINGS}\` and a bearer token in`,
      "`ANTHROPIC_CUSTOM_HEADERS`: the cost of the shim's redaction by value.",
      "",
      "| case | median per call (ms) | added over direct (ms) |",
      "|---|---:|---:|",
    ];
    for (const row of rows) {
      const direct = row.stdin === "" ? "direct target" : "direct target, prompt on stdin";
      const own = median(perRound.map((m) => m.get(row.name) ?? NaN));
      const added = median(perRound.map((m) => (m.get(row.name) ?? NaN) - (m.get(direct) ?? NaN)));
      lines.push(
        `| ${row.name} | ${ms(own)} | ${row.name.startsWith("direct") ? "" : ms(added)} |`,
      );
    }
    return lines.join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

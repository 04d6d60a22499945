// witness cell shim: one spawn of a pinned CLI by an orchestrator, recorded and passed through.
// Started by `<cell>/witness-bin/<bin>` (a sh launcher) as `node cell-shim.mjs <config> <args…>`.
// It claims the next spawn number with an O_EXCL mkdir (unique across PID namespaces sharing the
// cell), records what the orchestrator handed over, sets witness's own plumbing (the fake's
// `/s/<n>` route, dummy key, cell HOME) over whatever the caller's environment says, and runs the
// pinned CLI with stdin, stdout and stderr streamed through (stderr kept too: a CLI that stops
// before asking the model says why there, and the orchestrator may only see it as an error): the Agent SDK keeps stdin open until the
// CLI's result, so nothing here may wait for an end of input. Node builtins only: it runs in the
// cell, where witness's own modules are not loaded. Witness redacts what it reads back.
// It also measures the CLI's use (exit.json's `use`): the CPU of the CLI and of every process the
// CLI waited for, from this process's reaped children's totals (/proc/self/stat cutime and
// cstime, clock ticks) once the CLI is reaped; the wall time from its start to its reaping; the
// CLI process's own peak resident set (VmHWM), read every 50 ms while it runs (growth in its last
// 50 ms is missed); and this shim's own CPU, which is neither the CLI's nor the orchestrator's.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

const [configPath, ...argv] = process.argv.slice(2);
const config = JSON.parse(readFileSync(configPath, "utf8"));
const started = Date.now();

let n = 0;
for (let i = 1; n === 0; i++) {
  if (i > config.maxSpawns) {
    writeFileSync(
      join(config.spawnsDir, `refused.${process.pid}.${started}`),
      JSON.stringify({ argv }),
    );
    process.stderr.write(
      `witness: spawn refused: more than ${config.maxSpawns} spawns of ${config.cli}\n`,
    );
    process.exit(97);
  }
  try {
    mkdirSync(join(config.spawnsDir, String(i)));
    n = i;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
}
const dir = join(config.spawnsDir, String(n));
const fill = (text) => text.replaceAll("@@SPAWN@@", String(n));
const plumbing = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, fill(v)]));
const overridden = Object.keys(plumbing).filter((k) => process.env[k] !== plumbing[k]);
writeFileSync(
  join(dir, "call.json"),
  JSON.stringify({
    cli: config.cli,
    argv,
    env: process.env,
    overridden,
    cwd: process.cwd(),
    start: started,
    pid: process.pid,
  }),
);
const env = { ...process.env, ...plumbing };
if (env.PATH === undefined) env.PATH = config.path;
// The driver's own flags (Codex's provider) go after the caller's: a later `-c` wins, and a
// caller's own `-c model_provider=…` must not take the CLI off the fake. After a `--` they would
// be operands, so there they stay before the caller's argv.
const slot = config.args.indexOf("@@ARGV@@");
const flags = config.args
  .slice(config.head, slot)
  .concat(config.args.slice(slot + 1))
  .map(fill);
const head = config.args.slice(0, config.head);
const args = argv.includes("--") ? [...head, ...flags, ...argv] : [...head, ...argv, ...flags];

// Each stream kept up to the bound; the count goes on past it.
function recorder(name) {
  const fd = openSync(join(dir, name), "w");
  let kept = 0;
  return {
    bytes: 0,
    add(chunk) {
      this.bytes += chunk.length;
      if (kept >= config.bound) return;
      const part = chunk.subarray(0, config.bound - kept);
      kept += part.length;
      writeSync(fd, part);
    },
    close: () => closeSync(fd),
  };
}
const stdinLog = recorder("stdin");
const stdoutLog = recorder("stdout");
const stderrLog = recorder("stderr");
// This process's reaped children's CPU in clock ticks (user, system); null without /proc.
function reapedTicks() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [Number(fields[13]), Number(fields[14])];
  } catch {
    return null;
  }
}
let hwmKb = null;
function readHwm(pid) {
  try {
    const kb = Number(
      /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1],
    );
    if (Number.isFinite(kb)) hwmKb = Math.max(hwmKb ?? 0, kb);
  } catch {
    // gone already, or no /proc
  }
}
const ticksBefore = reapedTicks();
const spawnedAt = performance.now();
const child = spawn(config.file, args, { env, stdio: ["pipe", "pipe", "pipe"] });
const poll = setInterval(() => readHwm(child.pid), 50);
poll.unref();
child.on("error", (error) => {
  process.stderr.write(`witness: cannot start ${config.file}: ${error.message}\n`);
  finish(127, null);
});
process.stdin.on("data", (chunk) => {
  stdinLog.add(chunk);
  if (!child.stdin.write(chunk)) {
    process.stdin.pause();
    child.stdin.once("drain", () => process.stdin.resume());
  }
});
process.stdin.on("end", () => child.stdin.end());
process.stdin.on("error", () => child.stdin.end());
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk) => {
  stdoutLog.add(chunk);
  if (!process.stdout.write(chunk)) {
    child.stdout.pause();
    process.stdout.once("drain", () => child.stdout.resume());
  }
});
child.stderr.on("data", (chunk) => {
  stderrLog.add(chunk);
  if (!process.stderr.write(chunk)) {
    child.stderr.pause();
    process.stderr.once("drain", () => child.stderr.resume());
  }
});
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"])
  process.on(signal, () => child.kill(signal));
child.on("close", (code, signal) => finish(code, signal));

let done = false;
function finish(code, signal) {
  if (done) return;
  done = true;
  clearInterval(poll);
  const ticksAfter = reapedTicks();
  const cpu = process.cpuUsage();
  const use = {
    wallMs: Math.round(performance.now() - spawnedAt),
    ...(ticksBefore === null || ticksAfter === null
      ? {}
      : { userTicks: ticksAfter[0] - ticksBefore[0], systemTicks: ticksAfter[1] - ticksBefore[1] }),
    hwmKb,
    shimCpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  stdinLog.close();
  stdoutLog.close();
  stderrLog.close();
  const end = {
    exitCode: code,
    signal,
    end: Date.now(),
    stdinBytes: stdinLog.bytes,
    stdoutBytes: stdoutLog.bytes,
    stderrBytes: stderrLog.bytes,
    use,
  };
  writeFileSync(join(dir, "exit.json"), JSON.stringify(end));
  process.stdin.destroy();
  if (signal !== null) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exitCode = code ?? 1;
}

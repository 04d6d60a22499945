// The CLI's own resource use, as the PID namespace's first process measured it (assets/tree-use.sh):
// its children's CPU from the kernel (getrusage(RUSAGE_CHILDREN), which covers every process of
// the tree it reaped: the CLI, what the CLI waited for, and the orphans the init reaped) and the
// wall time between starting the CLI and reaping it.
import type { CliUse } from "../contracts/observation.js";

// /proc/<pid>/stat counts CPU in USER_HZ ticks, 100 a second on every architecture Node runs on;
// /proc/uptime counts hundredths of a second.
const MS_PER_TICK = 10;

const whole = (text: string | undefined) =>
  text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
const hundredths = (text: string | undefined) =>
  text !== undefined && /^\d+\.\d\d$/.test(text) ? Math.round(Number(text) * 100) : null;

/**
 * The `tree_use:` line of a launch's report (`<cutime> <cstime> <uptime>` when the CLI started,
 * then the same when it had been reaped); null when there is none (the init was killed, or the
 * containment has no init) or it does not read as numbers.
 */
export function readTreeUse(report: string): CliUse | null {
  const line = report.split("\n").find((l) => l.startsWith("tree_use:"));
  if (line === undefined) return null;
  const parts = line.slice("tree_use:".length).trim().split(/\s+/);
  if (parts.length !== 6) return null;
  const [u0, s0, w0, u1, s1, w1] = [
    whole(parts[0]),
    whole(parts[1]),
    hundredths(parts[2]),
    whole(parts[3]),
    whole(parts[4]),
    hundredths(parts[5]),
  ];
  if (u0 === null || s0 === null || w0 === null || u1 === null || s1 === null || w1 === null)
    return null;
  const userMs = (u1 - u0) * MS_PER_TICK;
  const systemMs = (s1 - s0) * MS_PER_TICK;
  return {
    userMs,
    systemMs,
    cpuMs: userMs + systemMs,
    wallMs: (w1 - w0) * 10,
    resolutionMs: MS_PER_TICK,
    source: "pid-namespace-init",
  };
}

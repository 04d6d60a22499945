// One process run under bash, whose `times` afterwards gives the rusage of the children it waited
// for: the CPU of the command and of everything it started (a CLI's helpers, witness's git,
// forwarder and namespace tools). Used by the whole-process rows of two benches.
import { runProcess } from "../core/exec.js";

/** What one run under bash cost, and what it wrote on stderr. */
export interface UnderBash {
  wallMs: number;
  /** User + system CPU of the process and every child it waited for. */
  cpuMs: number;
  stderr: string;
}

const seconds = (text: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m === null ? NaN : (Number(m[1]) * 60 + Number(m[2])) * 1000;
};

/**
 * Runs `file args` under bash and measures it; throws unless it exits with one of `okExits`. Its
 * stdout goes to `stdoutTo` (default /dev/null).
 */
export async function underBash(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  {
    okExits = [0],
    timeoutMs = 600_000,
    stdoutTo = "/dev/null",
  }: { okExits?: readonly number[]; timeoutMs?: number; stdoutTo?: string } = {},
): Promise<UnderBash> {
  const started = performance.now();
  const r = await runProcess({
    file: "/bin/bash",
    args: [
      "-c",
      'out=$1; shift; "$@" >"$out"; rc=$?; times; exit $rc',
      "bench",
      stdoutTo,
      file,
      ...args,
    ],
    env,
    cwd,
    timeoutMs,
  });
  const wallMs = performance.now() - started;
  if (r.exitCode === null || !okExits.includes(r.exitCode))
    throw new Error(`${file} ${args.join(" ")} exited ${r.exitCode}: ${r.stderr}`);
  const children = r.stdout.trim().split("\n").at(-1)?.split(/\s+/) ?? [];
  return {
    wallMs,
    cpuMs: seconds(children[0] ?? "") + seconds(children[1] ?? ""),
    stderr: r.stderr,
  };
}

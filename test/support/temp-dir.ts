// Test helpers: a temp dir per test and a shim run through the one exec seam.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { type ExecResult, runProcess } from "../../core/exec.js";

/** Creates a temp dir and returns it with its cleanup. */
export async function tempDir(
  prefix = "witness-shims-test-",
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `file` with `args` and an explicit small environment (PATH from this process unless given). */
export function run(
  file: string,
  args: readonly string[],
  options: {
    env?: Record<string, string>;
    input?: string | Uint8Array;
    cwd?: string;
    signal?: AbortSignal;
    /** The bound on the run (default 30 s). */
    timeoutMs?: number;
  } = {},
): Promise<ExecResult> {
  return runProcess({
    file,
    args,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env },
    cwd: options.cwd ?? tmpdir(),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    timeoutMs: options.timeoutMs ?? 30_000,
  });
}

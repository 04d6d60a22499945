// The one exec seam: the only module in witness that starts a process.
// A test (core/exec-seam.test.ts) fails if any other source file imports execa or child_process.
import { execa } from "execa";

/** A process to start, as data: never a shell string. */
export interface ExecRequest {
  file: string;
  args: readonly string[];
  /** The complete environment of the child; nothing is inherited from this process. */
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** Bytes or text for stdin; stdin is closed (empty) when absent. */
  input?: string | Uint8Array;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Inherit stdio instead of capturing (interactive pass-through). */
  inheritStdio?: boolean;
  /** Capture stdout as bytes (`stdoutBytes`), for output whose lengths count bytes. */
  binaryStdout?: boolean;
}

/** What a finished process did. A non-zero exit is a result, not an exception. */
export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  /** Stdout as bytes, when the request asked for `binaryStdout` (stdout is then empty). */
  stdoutBytes?: Uint8Array;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** Set when the file could not be started at all (ENOENT, EACCES). */
  spawnError: string | null;
}

const decoder = new TextDecoder();

/** Starts `req.file` with `req.args` and waits for it; never throws for a failing child. */
export async function runProcess(req: ExecRequest): Promise<ExecResult> {
  const started = performance.now();
  const result = await execa(req.file, [...req.args], {
    env: { ...req.env },
    extendEnv: false,
    cwd: req.cwd,
    reject: false,
    stripFinalNewline: false,
    ...(req.inheritStdio
      ? { stdio: "inherit" as const }
      : { input: req.input ?? "", stdout: "pipe" as const, stderr: "pipe" as const }),
    ...(req.binaryStdout ? { encoding: "buffer" as const } : {}),
    ...(req.timeoutMs === undefined ? {} : { timeout: req.timeoutMs }),
    ...(req.signal === undefined ? {} : { cancelSignal: req.signal }),
    forceKillAfterDelay: 2000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const spawnFailed = result.exitCode === undefined && result.signal === undefined && result.failed;
  const bytes = (value: unknown) => (value instanceof Uint8Array ? value : undefined);
  const text = (value: unknown) =>
    typeof value === "string" ? value : value instanceof Uint8Array ? decoder.decode(value) : "";
  const stdoutBytes = req.binaryStdout ? bytes(result.stdout) : undefined;
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    stdout: req.binaryStdout ? "" : text(result.stdout),
    ...(stdoutBytes === undefined ? {} : { stdoutBytes }),
    stderr: text(result.stderr),
    durationMs: performance.now() - started,
    timedOut: result.timedOut,
    spawnError: spawnFailed ? (result.code ?? result.shortMessage ?? "spawn failed") : null,
  };
}

// The one exec seam: the only module in witness that starts a process.
// A test (core/exec-seam.test.ts) fails if any other source file imports execa or child_process.
import { accessSync, constants } from "node:fs";

import { execa } from "execa";

import { InternalError } from "./errors.js";

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
  /** The signal a timeout or an abort sends (default SIGTERM, then SIGKILL two seconds later). */
  killSignal?: NodeJS.Signals;
  /**
   * Run the child in a process group of its own and end the whole group: on a timeout or an
   * abort, when the child exits (its leftovers), and, through a watchdog process, when this
   * process dies, SIGKILL included. For where a PID namespace is not available.
   */
  processGroup?: boolean;
  /**
   * Give the child a pipe on fd 3 and return what was written to it (`report`): a launcher writes
   * there what it measured before it closes the fd and starts the command, which never holds it.
   * Not with `processGroup` or `inheritStdio` (fd 3 is the watchdog's there).
   */
  reportPipe?: boolean;
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
  /** What the child wrote on fd 3, when the request asked for `reportPipe`. */
  report?: string;
}

const decoder = new TextDecoder();

// Groups still running; an exiting process ends them synchronously (the watchdog covers SIGKILL).
const liveGroups = new Set<number>();
process.on("exit", () => {
  for (const group of liveGroups) killGroup(group, "SIGKILL");
});

function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // already gone
  }
}

// The group's leader starts a watchdog before it becomes the command: the watchdog waits for EOF
// on fd 3, a pipe only this process holds open, which comes however this process dies, and then
// ends the group. Started first, there is no moment when the command runs unwatched. It ignores
// the terminal's signals: a Ctrl-C is this process's to handle, and it ends the group itself.
const GROUP_LEADER =
  '(trap "" INT TERM HUP QUIT; read -r _ <&3; kill -KILL 0) & exec 3<&-; exec "$@"';

function cannotStart(file: string): string | null {
  if (!file.includes("/")) return null;
  try {
    accessSync(file, constants.X_OK);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "spawn failed";
  }
}

/** Starts `req.file` with `req.args` and waits for it; never throws for a failing child. */
export async function runProcess(req: ExecRequest): Promise<ExecResult> {
  const started = performance.now();
  const group = req.processGroup === true && process.platform !== "win32";
  const report = req.reportPipe === true;
  if (report && (group || req.inheritStdio === true))
    throw new InternalError(
      "runProcess: reportPipe needs fd 3, which processGroup and inheritStdio take",
    );
  // Through the leader's `exec`, a missing file would read as exit 127: say so as execa would.
  const unstartable = group ? cannotStart(req.file) : null;
  if (unstartable !== null)
    return {
      ...{ exitCode: null, signal: null, stdout: "", stderr: "", timedOut: false },
      durationMs: performance.now() - started,
      spawnError: unstartable,
    };
  const [file, args] = group
    ? ["/bin/sh", ["-c", GROUP_LEADER, "witness-group", req.file, ...req.args]]
    : [req.file, [...req.args]];
  const child = execa(file, args, {
    env: { ...req.env },
    extendEnv: false,
    cwd: req.cwd,
    reject: false,
    stripFinalNewline: false,
    ...(req.inheritStdio
      ? { stdio: group ? ["inherit", "inherit", "inherit", "pipe"] : ("inherit" as const) }
      : {
          input: req.input ?? "",
          stdio: group || report ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
        }),
    // A group's timeout and abort are handled below, for the whole group.
    ...(req.timeoutMs === undefined || group ? {} : { timeout: req.timeoutMs }),
    ...(req.signal === undefined || group ? {} : { cancelSignal: req.signal }),
    ...(req.killSignal === undefined ? {} : { killSignal: req.killSignal }),
    ...(group ? { detached: true } : {}),
    ...(req.binaryStdout ? { encoding: "buffer" as const } : {}),
    forceKillAfterDelay: 2000,
    maxBuffer: 64 * 1024 * 1024,
  });
  let timedOut = false;
  let cleanup = () => {};
  if (group && child.pid !== undefined) {
    const pid = child.pid;
    liveGroups.add(pid);
    const signal = req.killSignal ?? "SIGKILL";
    const end = () => killGroup(pid, signal);
    const timer =
      req.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            end();
          }, req.timeoutMs);
    req.signal?.addEventListener("abort", end, { once: true });
    // Whatever the leader left running would hold its pipes open: the group goes with it.
    child.on("exit", () => killGroup(pid, "SIGKILL"));
    cleanup = () => {
      if (timer !== null) clearTimeout(timer);
      req.signal?.removeEventListener("abort", end);
      liveGroups.delete(pid);
    };
  }
  const result = await child;
  cleanup();
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
    timedOut: timedOut || result.timedOut,
    spawnError: spawnFailed ? (result.code ?? result.shortMessage ?? "spawn failed") : null,
    ...(report ? { report: text(result.stdio[3]) } : {}),
  };
}

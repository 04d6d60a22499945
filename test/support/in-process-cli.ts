// The witness command run inside the test's own process: the same yargs set-up, handlers, exit
// codes and output as the built binary, without the bundle, the launcher and the code cache (each
// command's *.e2e.test.ts samples go through those). A run borrows the process's working
// directory, environment, exit code and output streams, so runs take turns, one at a time.
import { witnessProgram } from "../../cli/program.js";

/** What a run printed and the exit code the binary would have had. */
export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A parse failure's exit, thrown out of yargs instead of ending the process. */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`witness exited ${code}`);
  }
}

type Write = typeof process.stdout.write;

// Collects what is written; a callback given to write() is called, as a stream would.
function collect(into: string[]): Write {
  return (chunk: string | Uint8Array, ...rest: unknown[]) => {
    into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    done?.();
    return true;
  };
}

let turn: Promise<unknown> = Promise.resolve();

/**
 * Runs `witness <args>` in `cwd` with exactly `env` as its environment (vitest's own variables
 * kept), as the binary would run; resolves once its handler has finished.
 */
export function runCliInProcess(options: {
  cwd: string;
  args: readonly string[];
  env: Record<string, string>;
}): Promise<CliRun> {
  const run = turn.then(() => runOnce(options));
  turn = run.catch(() => undefined);
  return run;
}

async function runOnce(options: {
  cwd: string;
  args: readonly string[];
  env: Record<string, string>;
}): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const saved = {
    cwd: process.cwd(),
    env: { ...process.env },
    exitCode: process.exitCode,
    stdout: process.stdout.write.bind(process.stdout),
    stderr: process.stderr.write.bind(process.stderr),
  };
  let code: number | undefined;
  try {
    process.chdir(options.cwd);
    for (const key of Object.keys(process.env))
      if (!key.startsWith("VITEST")) Reflect.deleteProperty(process.env, key);
    Object.assign(process.env, options.env);
    process.exitCode = undefined;
    process.stdout.write = collect(stdout);
    process.stderr.write = collect(stderr);
    const program = witnessProgram(options.args, {
      stderr: (line) => stderr.push(`${line}\n`),
      exit: (exit) => {
        throw new Exit(exit);
      },
    });
    try {
      // The parse callback takes what yargs would print itself (--help, --version) and keeps it
      // from ending the process.
      await program.parseAsync(options.args, {}, (_error, _argv, output) => {
        if (output !== "") stdout.push(`${output}\n`);
      });
    } catch (error) {
      if (!(error instanceof Exit)) throw error;
      code = error.code;
    }
    code ??= typeof process.exitCode === "number" ? process.exitCode : 0;
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    process.exitCode = saved.exitCode;
    for (const key of Object.keys(process.env))
      if (!(key in saved.env)) Reflect.deleteProperty(process.env, key);
    Object.assign(process.env, saved.env);
    process.chdir(saved.cwd);
  }
  return { exitCode: code, stdout: stdout.join(""), stderr: stderr.join("") };
}

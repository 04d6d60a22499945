import { CheckFailedError, InputError, RefusalError, UsageError } from "../core/errors.js";

/** Writes an error the way a person should see it and returns the process exit code. */
export function reportError(error: unknown, stderr: (line: string) => void): number {
  if (error instanceof InputError || error instanceof UsageError || error instanceof RefusalError) {
    stderr(`witness: ${error.message}`);
    return 2;
  }
  if (error instanceof CheckFailedError) {
    stderr(`witness: ${error.message}`);
    return 1;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr(`witness: internal error (a bug, please report it):\n${stack}`);
  return 70;
}

/** Wraps a command handler so that only this module decides exit codes. */
export function handled<A>(fn: (args: A) => Promise<number | void>): (args: A) => Promise<void> {
  return async (args: A) => {
    try {
      const code = await fn(args);
      process.exitCode = code ?? 0;
    } catch (error) {
      process.exitCode = reportError(error, (line) => process.stderr.write(`${line}\n`));
    }
  };
}

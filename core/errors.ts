/** One problem found in a user's input: where it is and what was expected there. */
export interface InputIssue {
  /** Dotted path to the field, e.g. `arms.0.expect.1.marker`; empty for the whole file. */
  path: string;
  message: string;
}

/** Bad user input (a spec, protocol, fixture or flag). The CLI maps it to exit code 2. */
export class InputError extends Error {
  override readonly name = "InputError";
  constructor(
    readonly file: string,
    readonly issues: readonly InputIssue[],
  ) {
    super(
      issues.map((i) => `${file}: ${i.path === "" ? "" : `${i.path}: `}${i.message}`).join("\n"),
    );
  }
}

/** A command-line usage problem (unknown option, contradictory flags). Exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** A launch the policy refuses before anything spawns. Exit code 2, with its reason code. */
export class RefusalError extends Error {
  override readonly name = "RefusalError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`refused (${code}): ${message}`);
  }
}

/** The work ran, and its answer is "no": a refuted verdict, a failed gate. Exit code 1. */
export class CheckFailedError extends Error {
  override readonly name = "CheckFailedError";
}

/** A bug or an environment fault that is nobody's input. Exit code 70, printed with its stack. */
export class InternalError extends Error {
  override readonly name = "InternalError";
}

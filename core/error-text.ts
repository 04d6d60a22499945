// How a caught value is shown in one line of a message, whatever was thrown.

/** The message of a caught value (an Error's message, else its string form). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first line of a caught value's message: enough for a one-line fault or note. */
export function firstLine(error: unknown): string {
  const message = errorMessage(error);
  return message.split("\n")[0] ?? message;
}

import { InputError } from "../core/errors.js";

/** Quotes a string as one POSIX sh word: single quotes, with `'` written as `'\''`. */
export function shQuote(value: string, what = "value"): string {
  // A NUL byte cannot live in a shell word, an argv entry or an environment value.
  if (value.includes("\0"))
    throw new InputError(what, [{ path: "", message: "contains a NUL byte" }]);
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

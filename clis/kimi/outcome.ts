// Kimi Code's one classifier. Its results carry no error flag on the Chat Completions wire; a
// failed or refused call starts with its error tag, and the words after it say which (0.20.0, 2.1.0).
import { type CallClassifier, resultOf } from "../outcome.js";

/** The prefix of every result of a call that did not run cleanly. */
export const KIMI_ERROR_TAG = "<system>ERROR: Tool execution failed.</system>";

/** Kimi's wordings after the error tag, with the versions a run or its bundle showed them on. */
export const KIMI_WORDING = {
  /** A call of a tool it does not offer (0.20.0, 2.1.0). */
  notFound: /^Tool "[^"]+" not found$/m,
  /** A `[[permission.rules]]` deny (0.20.0; 2.1.0 ignores those rules), a policy, a rejected ask (2.1.0 bundle). */
  denied:
    /was denied by permission (?:rule|policy)|was not run because the user rejected the approval request/,
  /** A shell command's non-zero exit (0.20.0, 2.1.0). */
  exit: /^Command failed with exit code: (-?\d+)\.?$/m,
} as const;

/**
 * No error tag: it ran. After the tag: no such tool, a refusal, a command's exit code, else an
 * error (a PreToolUse hook's refusal reads as its own text, so it lands here too).
 */
export const classifyKimiCall: CallClassifier = (evidence) => {
  const result = resultOf(evidence);
  if (result === null) return { outcome: "unknown", because: "no result" };
  const tagged = result.text.includes(KIMI_ERROR_TAG) || result.isError;
  if (!tagged) return { outcome: "ran", because: "no error tag" };
  if (KIMI_WORDING.notFound.test(result.text))
    return { outcome: "no-such-tool", because: "wording" };
  if (KIMI_WORDING.denied.test(result.text)) return { outcome: "denied", because: "wording" };
  const exit = KIMI_WORDING.exit.exec(result.text);
  if (exit?.[1] !== undefined) return { outcome: "error", because: `exit code ${exit[1]}` };
  return { outcome: "error", because: "error tag" };
};

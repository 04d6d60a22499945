// Gemini CLI's one classifier: the call's recorded status or the result's error flag, then its wording.
import { type CallClassifier, NO_SUCH_TOOL, resultOf, statedExitCode } from "../outcome.js";

/** Gemini CLI's own refusals: its policy engine, its workspace boundary, plan mode's plans directory. */
export const GEMINI_DENIED =
  /denied by policy|Path not in workspace|Access denied|requires (user )?approval/i;

/**
 * A failed call (status `error`, or an error result) is a missing tool, a refusal or an error by
 * its wording; a command that ran and exited non-zero is an error (its `Exit Code: N` line).
 */
export const classifyGeminiCall: CallClassifier = (evidence) => {
  const status = evidence.recorded?.status ?? null;
  const result = resultOf(evidence);
  if (result === null && status === null) return { outcome: "unknown", because: "no result" };
  const text = result?.text ?? "";
  const because = status === null ? "error result" : `status ${status}`;
  if (status === "error" || (status === null && result?.isError === true)) {
    if (/not found/i.test(text) || NO_SUCH_TOOL.test(text))
      return { outcome: "no-such-tool", because };
    if (GEMINI_DENIED.test(text)) return { outcome: "denied", because };
    return { outcome: "error", because };
  }
  if (status !== null && status !== "success")
    return { outcome: "unknown", because: `status ${status}` };
  const exit = statedExitCode(text);
  if (exit !== null && exit !== 0) return { outcome: "error", because: `exit code ${exit}` };
  return { outcome: "ran", because: status === null ? "result without error" : "status success" };
};

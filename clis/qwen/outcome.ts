// Qwen Code's one classifier: its recorded error type first, then the stated exit code, the
// execution status, the result's wording and the telemetry's decision.
import { type CallClassifier, NO_SUCH_TOOL, resultOf, statedExitCode } from "../outcome.js";

/** Qwen Code's refusals in a tool result's text. */
export const QWEN_DENIED = /permission was declined|denied by permission rules/i;

/** `execution_denied` is a refusal, `tool_not_registered` a missing tool; a result decides the rest. */
export const classifyQwenCall: CallClassifier = (evidence) => {
  const recorded = evidence.recorded;
  const errorType = recorded?.errorType ?? null;
  if (errorType === "execution_denied") return { outcome: "denied", because: "errorType" };
  if (errorType === "tool_not_registered") return { outcome: "no-such-tool", because: "errorType" };
  const result = resultOf(evidence);
  if (result !== null) {
    if (NO_SUCH_TOOL.test(result.text)) return { outcome: "no-such-tool", because: "wording" };
    if (QWEN_DENIED.test(result.text)) return { outcome: "denied", because: "wording" };
  }
  const exit = (result === null ? null : statedExitCode(result.text)) ?? recorded?.exitCode ?? null;
  if (exit !== null) return { outcome: exit === 0 ? "ran" : "error", because: `exit code ${exit}` };
  const status = recorded?.status ?? null;
  if (status === "success") return { outcome: "ran", because: "executionStatus" };
  if (status === "error") return { outcome: "error", because: "executionStatus" };
  if (errorType !== null) return { outcome: "error", because: "errorType" };
  if (result === null) return { outcome: "unknown", because: "no result recorded" };
  const decision = recorded?.decision ?? null;
  return decision === null || decision === "auto_accept"
    ? { outcome: "ran", because: decision === null ? "result" : "decision auto_accept" }
    : { outcome: "error", because: `decision ${decision}` };
};

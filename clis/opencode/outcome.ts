// opencode's one classifier: its auto-reject, its wordings, then the part's status and exit code.
import { type CallClassifier } from "../outcome.js";

/** opencode's wordings for a call it did not run: an auto-rejected ask, a deny rule, no such tool. */
export const OPENCODE_WORDING = {
  rejected: /rejected permission to use this specific tool call/,
  ruleDenied: /rule which prevents you from using this specific tool call/,
  unavailable: /Model tried to call unavailable tool|unavailable tool/,
} as const;

/**
 * An auto-rejected ask (`decision: reject`, from its error's wording) is a refusal; a deny rule's
 * or a missing tool's wording decides next; the recorded status and exit code say ran or failed.
 */
export const classifyOpencodeCall: CallClassifier = (evidence) => {
  const recorded = evidence.recorded;
  if (recorded?.decision === "reject") return { outcome: "denied", because: "auto-rejected" };
  const text = evidence.wire?.text ?? recorded?.result?.text;
  if (text === undefined) return { outcome: "unknown", because: "no result" };
  if (OPENCODE_WORDING.unavailable.test(text))
    return { outcome: "no-such-tool", because: "wording" };
  if (OPENCODE_WORDING.ruleDenied.test(text)) return { outcome: "denied", because: "deny rule" };
  if (recorded === null) return { outcome: "ran", because: "result on the wire" };
  const exit = recorded.exitCode ?? null;
  if (recorded.status === "error") return { outcome: "error", because: "status error" };
  if (exit !== null && exit !== 0) return { outcome: "error", because: `exit code ${exit}` };
  if (recorded.result?.isError === true) return { outcome: "error", because: "error result" };
  return {
    outcome: "ran",
    because: recorded.status === null ? "recorded" : `status ${recorded.status}`,
  };
};

// Claude Code's one classifier: its recorded decision fields where the version writes them, its
// wording table otherwise (wordings.ts).
import type { CallClassifier } from "../outcome.js";
import { resultOf } from "../outcome.js";
import { claudeWording } from "./wordings.js";

/**
 * A recorded `reject` (2.1.295+) or any `toolDenialKind` (2.1.200+) is a refusal, whatever the
 * result says; an error result is read by the wording table; an accepted or error-free result ran.
 */
export const classifyClaudeCall: CallClassifier = (evidence) => {
  const recorded = evidence.recorded;
  if (recorded?.decision === "reject")
    return { outcome: "denied", because: "permissionDecision reject" };
  if (recorded?.denialKind)
    return { outcome: "denied", because: `toolDenialKind ${recorded.denialKind}` };
  const result = resultOf(evidence);
  if (result === null) return { outcome: "unknown", because: "no tool result" };
  if (result.isError) {
    const wording = claudeWording(result.text);
    if (wording !== null) return { outcome: wording.outcome, because: `wording ${wording.id}` };
  }
  if (recorded?.decision === "accept")
    return { outcome: result.isError ? "error" : "ran", because: "permissionDecision accept" };
  return result.isError
    ? { outcome: "error", because: "is_error, no known refusal wording" }
    : { outcome: "ran", because: "result without is_error" };
};

// GitHub Copilot CLI's one classifier. Chat results carry no error flag, so the text decides on
// the wire; the session's own record (tool.execution_complete, permission.completed) decides first.
import { type CallClassifier, NO_SUCH_TOOL, resultOf } from "../outcome.js";

/** One way a refusal reads in the result sent back to the model, and where it was seen. */
export interface CopilotWording {
  id: string;
  pattern: RegExp;
  seenOn: readonly string[];
}

/** The refusals of a call no rule approved, headless (no user to ask). */
export const COPILOT_DENIED_WORDINGS: readonly CopilotWording[] = [
  {
    id: "no-interactive-user",
    pattern: /^Permission denied because no interactive user response was available/,
    seenOn: ["1.0.102"],
  },
  {
    id: "could-not-request",
    pattern: /^Permission denied and could not request permission from user/,
    seenOn: ["1.0.60"],
  },
];

/** The shell tool's exit line: `<shellId: 0 completed with exit code 3>`. */
const SHELL_EXIT = /<shellId: \S+ completed with exit code (-?\d+)>/;

/** The exit code a shell result states, or null. */
export function copilotExitCode(text: string): number | null {
  const match = SHELL_EXIT.exec(text);
  return match ? Number(match[1]) : null;
}

/** A recorded denial (`error.code: denied`, a `denied-…` permission result) wins; else the text. */
export const classifyCopilotCall: CallClassifier = (evidence) => {
  const recorded = evidence.recorded;
  const decision = recorded?.decision ?? null;
  if (decision?.startsWith("denied")) return { outcome: "denied", because: `decision ${decision}` };
  if (recorded?.errorType === "denied") return { outcome: "denied", because: "error code denied" };
  const result = resultOf(evidence);
  if (result !== null) {
    const wording = COPILOT_DENIED_WORDINGS.find((w) => w.pattern.test(result.text));
    if (wording !== undefined) return { outcome: "denied", because: `wording ${wording.id}` };
    if (NO_SUCH_TOOL.test(result.text)) return { outcome: "no-such-tool", because: "wording" };
  }
  const exit =
    recorded?.exitCode ?? (result === null ? null : copilotExitCode(result.text)) ?? null;
  if (exit !== null) return { outcome: exit === 0 ? "ran" : "error", because: `exit code ${exit}` };
  if (recorded?.status === "success") return { outcome: "ran", because: "success true" };
  if (recorded?.status === "failure") return { outcome: "error", because: "success false" };
  if (result === null) return { outcome: "unknown", because: "no result recorded" };
  return result.isError
    ? { outcome: "error", because: "error result" }
    : { outcome: "ran", because: "result" };
};

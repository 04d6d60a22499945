// Cline 3.x's one classifier. A refusal comes back as `{"error": "…"}` (with `is_error` on the
// Anthropic wire); a command's or an edit's result as JSON carrying `success`.
import { type CallClassifier, NO_SUCH_TOOL, resultOf } from "../outcome.js";

/** One way a refusal reads in the result sent back to the model, and where it was seen. */
export interface ClineWording {
  id: string;
  pattern: RegExp;
  seenOn: readonly string[];
}

/** The refusals of a call the mode did not approve, headless. */
export const CLINE_DENIED_WORDINGS: readonly ClineWording[] = [
  {
    id: "needs-tty-approval",
    pattern: /requires approval in a TTY session/,
    seenOn: ["3.0.57", "3.0.65"],
  },
  {
    id: "plan-mode",
    pattern: /file modifications are blocked in plan mode/,
    seenOn: ["3.0.65"],
  },
];

/** A tool the mode does not offer: `AI_NoSuchToolError: Model tried to call unavailable tool`. */
const UNAVAILABLE = /AI_NoSuchToolError|tried to call unavailable tool/;

/** `success` of every entry of a result's JSON (one object, or an array of command results). */
export function clineSuccess(text: string): boolean | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  const flags = entries.map((e) =>
    typeof e === "object" && e !== null && typeof (e as { success?: unknown }).success === "boolean"
      ? (e as { success: boolean }).success
      : null,
  );
  if (flags.length === 0 || flags.includes(null)) return null;
  return flags.every(Boolean);
}

/** The exit code a failed command states: `Command exited with code 3`. */
export function clineExitCode(text: string): number | null {
  const match = /Command exited with code (-?\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

/** The wordings first, then the result's own `success` flags, then the error flag. */
export const classifyClineCall: CallClassifier = (evidence) => {
  const result = resultOf(evidence);
  if (result === null) return { outcome: "unknown", because: "no result recorded" };
  const wording = CLINE_DENIED_WORDINGS.find((w) => w.pattern.test(result.text));
  if (wording !== undefined) return { outcome: "denied", because: `wording ${wording.id}` };
  if (UNAVAILABLE.test(result.text) || NO_SUCH_TOOL.test(result.text))
    return { outcome: "no-such-tool", because: "wording" };
  const success = clineSuccess(result.text);
  if (success === true) return { outcome: "ran", because: "success true" };
  if (success === false) {
    const exit = clineExitCode(result.text);
    return { outcome: "error", because: exit === null ? "success false" : `exit code ${exit}` };
  }
  return result.isError
    ? { outcome: "error", because: "error result" }
    : { outcome: "ran", because: "result" };
};

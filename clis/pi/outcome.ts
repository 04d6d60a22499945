// pi's one classifier: pi has no approval layer, so a call ran, failed or named no tool.
import { type CallClassifier } from "../outcome.js";

/** pi's answer to a call of a tool it does not offer: `Tool <name> not found`. */
export const PI_NOT_FOUND = /^Tool \S+ not found/;

/** The exit code pi's bash tool states for a command that failed (`Command exited with code 3`). */
export function piExitCode(text: string): number | null {
  const match = /Command exited with code (\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

/** The session's own result (with pi's `isError`) wins over the text sent back to the model. */
export const classifyPiCall: CallClassifier = (evidence) => {
  const recorded = evidence.recorded?.result ?? null;
  const result = recorded ?? evidence.wire;
  if (result === null) return { outcome: "unknown", because: "no result" };
  if (PI_NOT_FOUND.test(result.text)) return { outcome: "no-such-tool", because: "Tool not found" };
  if (recorded !== null)
    return recorded.isError
      ? { outcome: "error", because: "isError" }
      : { outcome: "ran", because: "no isError" };
  const exit = piExitCode(result.text);
  return exit !== null && exit !== 0
    ? { outcome: "error", because: `exit code ${exit}` }
    : { outcome: "ran", because: "no failing exit code" };
};

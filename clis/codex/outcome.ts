// Codex's one classifier: a tool the version lacks, then the exit code, then the sandbox's or the
// approval policy's wording (wordings.ts).
import { type CallClassifier, resultOf } from "../outcome.js";
import { CODEX_NO_SUCH_TOOL, codexExitCode, codexRefusalWording } from "./wordings.js";

/**
 * Exit code 0 ran; a refusal wording (in the result, or in a command the session reported) is
 * `denied`; another exit code, an error result or error wording is `error`; the rest ran.
 */
export const classifyCodexCall: CallClassifier = (evidence) => {
  const result = resultOf(evidence);
  const recorded = evidence.recorded;
  if (result === null) return { outcome: "unknown", because: "no tool output" };
  const text = result.text;
  if (CODEX_NO_SUCH_TOOL.test(text))
    return { outcome: "no-such-tool", because: "unsupported call" };
  const exit = recorded?.exitCode ?? codexExitCode(text.split("\n"))?.code ?? null;
  if (exit === 0) return { outcome: "ran", because: "exit code 0" };
  const refusal = codexRefusalWording(text)?.id ?? recorded?.refusal ?? null;
  if (refusal !== null) return { outcome: "denied", because: `refusal wording ${refusal}` };
  if (exit !== null) return { outcome: "error", because: `exit code ${exit}` };
  if (result.isError) return { outcome: "error", because: "error result" };
  return /error|failed/i.test(text)
    ? { outcome: "error", because: "no exit code, error wording" }
    : { outcome: "ran", because: "no exit code, no error wording" };
};

// Classifying a tool call's result text into ran / denied / no-such-tool / error.
import type { ToolOutcome } from "../contracts/observation.js";
import type { ProbeCliName } from "../contracts/probe-spec.js";
import type { WireResult } from "./request-views.js";

const NO_SUCH_TOOL = /No such tool available|unsupported call|unknown tool|tool .* not found/i;
const CLAUDE_DENIED =
  /requires approval|needs approval|has been denied|permission to use .* denied|was blocked|not allowed/i;
// What a command blocked by Codex's sandbox prints: the kernel's refusal, not a policy message.
const SANDBOX_DENIED =
  /Read-only file system|Operation not permitted|Permission denied|sandbox denied|rejected by/i;

/** The exit code Codex's exec tool reports inside its JSON output, when it does. */
export function codexExitCode(text: string): number | null {
  const match = /"exit_code"\s*:\s*(-?\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * What became of a tool call, from the result the CLI sent back and (Claude Code) the transcript's
 * permission decision. No result at all is `unknown`.
 */
export function classifyOutcome(
  cli: ProbeCliName,
  result: WireResult | null,
  decision: string | null,
): ToolOutcome {
  if (result === null) return decision === "reject" ? "denied" : "unknown";
  if (NO_SUCH_TOOL.test(result.text)) return "no-such-tool";
  if (cli === "claude-code") {
    if (decision === "reject" || (result.isError && CLAUDE_DENIED.test(result.text)))
      return "denied";
    return result.isError ? "error" : "ran";
  }
  const exit = codexExitCode(result.text);
  if (exit === 0) return "ran";
  if (SANDBOX_DENIED.test(result.text)) return "denied";
  return exit === null && !result.isError && !/error|failed/i.test(result.text) ? "ran" : "error";
}

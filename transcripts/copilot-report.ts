// A GitHub Copilot CLI session as `witness transcript` reports it: each call judged by the one
// classifier from what the session recorded (its permission decision, its completion).
import { classifyCopilotCall, copilotExitCode } from "../clis/copilot/outcome.js";
import { copilotRecorded, type CopilotSession } from "./copilot-session.js";
import { driftWarnings } from "./drift.js";
import { clip, phrase, resultExcerpt, summarizeInput } from "./session-facts.js";
import type { SessionReport } from "./session-report.js";

/** The report of a Copilot events.jsonl file. */
export function copilotReport(session: CopilotSession): SessionReport {
  return {
    file: session.path,
    cli: "copilot",
    sessionId: session.sessionId,
    cwd: session.cwd,
    cliVersion: session.version,
    model: session.models.at(-1) ?? null,
    models: session.models,
    permissionModes: session.permissionModes.map((mode) => ({ line: 0, mode })),
    sandboxPolicies: [],
    calls: session.toolCalls.map((call) => {
      const recorded = copilotRecorded(call);
      const judged = classifyCopilotCall({ wire: null, recorded });
      return {
        line: call.line,
        id: call.id,
        name: call.name,
        inputSummary: summarizeInput(call.arguments),
        outcome: judged.outcome,
        because: phrase(judged.because),
        exitCode: call.exitCode ?? copilotExitCode(call.text),
        resultExcerpt: resultExcerpt(judged.outcome, call.text),
      };
    }),
    finalText: session.finalText === null ? null : clip(session.finalText, 2000),
    usage: null,
    lineCount: session.lineCount,
    drift: session.drift,
    warnings: driftWarnings(session.path, session.drift),
    sidechains: [],
  };
}

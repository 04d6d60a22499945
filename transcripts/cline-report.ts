// A Cline 3.x session as `witness transcript` reports it: each call judged by the one classifier
// from the result its messages.json recorded; the mode each user turn was stored under.
import { classifyClineCall, clineExitCode } from "../clis/cline/outcome.js";
import { clineRecorded, type ClineSession } from "./cline-session.js";
import { driftWarnings } from "./drift.js";
import { clip, phrase, resultExcerpt, summarizeInput } from "./session-facts.js";
import type { SessionReport } from "./session-report.js";

/** The report of a Cline `<id>.messages.json` file. */
export function clineReport(session: ClineSession): SessionReport {
  return {
    file: session.path,
    cli: "cline",
    sessionId: session.sessionId,
    cwd: null,
    cliVersion: null,
    model: session.models.at(-1) ?? null,
    models: session.models,
    permissionModes: session.modes.map((mode) => ({ line: 0, mode })),
    sandboxPolicies: [],
    calls: session.toolCalls.map((call) => {
      const judged = classifyClineCall({ wire: null, recorded: clineRecorded(call) });
      return {
        line: call.line,
        id: call.id,
        name: call.name,
        inputSummary: summarizeInput(call.input),
        outcome: judged.outcome,
        because: phrase(judged.because),
        exitCode: call.text === null ? null : clineExitCode(call.text),
        resultExcerpt: resultExcerpt(judged.outcome, call.text ?? ""),
      };
    }),
    finalText: session.finalText === null ? null : clip(session.finalText, 2000),
    usage: null,
    // One JSON document: its "lines" are the messages.
    lineCount: session.messageCount,
    drift: session.drift,
    warnings: driftWarnings(session.path, session.drift),
    sidechains: [],
  };
}

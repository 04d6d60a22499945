// A Kimi Code session as `witness transcript` reports it: each call judged by the one classifier
// from the result its wire file recorded.
import { classifyKimiCall, KIMI_WORDING } from "../clis/kimi/outcome.js";
import { driftWarnings } from "./drift.js";
import { kimiRecorded, type KimiSession } from "./kimi-wire.js";
import { clip, phrase, resultExcerpt, summarizeInput } from "./session-facts.js";
import type { SessionReport } from "./session-report.js";

/** The report of a Kimi wire.jsonl file. */
export function kimiReport(session: KimiSession): SessionReport {
  return {
    file: session.path,
    cli: "kimi",
    sessionId: /(session_[\w-]+)/.exec(session.path)?.[1] ?? null,
    cwd: null,
    cliVersion: null,
    model: session.models.at(-1) ?? null,
    models: session.models,
    permissionModes: session.permissionModes.map((mode) => ({ line: 0, mode })),
    sandboxPolicies: [],
    calls: session.toolCalls.map((call) => {
      const judged = classifyKimiCall({ wire: null, recorded: kimiRecorded(call) });
      const exit = KIMI_WORDING.exit.exec(call.text)?.[1];
      return {
        line: call.line,
        id: call.id,
        name: call.name,
        inputSummary: summarizeInput(call.args),
        outcome: judged.outcome,
        because: phrase(judged.because),
        exitCode: exit === undefined ? null : Number(exit),
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

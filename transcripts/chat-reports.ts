// Gemini CLI and Qwen Code chats, pi sessions and opencode databases as `witness transcript`
// reports them. None of them records an approval mode per turn; a call's outcome comes from the
// status or wording the CLI wrote for it.
import { classifyGeminiCall } from "../clis/gemini/outcome.js";
import { classifyOpencodeCall } from "../clis/opencode/outcome.js";
import { statedExitCode } from "../clis/outcome.js";
import { classifyPiCall, piExitCode } from "../clis/pi/outcome.js";
import { classifyQwenCall } from "../clis/qwen/outcome.js";
import { driftWarnings } from "./drift.js";
import {
  type GeminiChat,
  geminiRecorded,
  geminiResultText,
  geminiText,
  type GeminiToolCall,
} from "./gemini-chat.js";
import { type OpencodeDb, opencodeRecorded } from "./opencode-session.js";
import { piRecorded, type PiSession } from "./pi-session.js";
import { type QwenChat, qwenRecorded, type QwenToolCall } from "./qwen-chat.js";
import { clip, phrase, resultExcerpt, summarizeInput } from "./session-facts.js";
import type { ReportCall, SessionReport } from "./session-report.js";

function geminiCall(call: GeminiToolCall): ReportCall {
  const text = geminiResultText(call.result);
  const { outcome, because } = classifyGeminiCall({ wire: null, recorded: geminiRecorded(call) });
  return {
    line: call.line,
    id: call.id,
    name: call.name,
    inputSummary: summarizeInput(call.args),
    outcome,
    because: phrase(because),
    exitCode: statedExitCode(text),
    resultExcerpt: resultExcerpt(outcome, text),
  };
}

/** The report of a Gemini CLI chat file. */
export function geminiReport(chat: GeminiChat): SessionReport {
  const models = [...new Set(chat.messages.flatMap((m) => (m.model ? [m.model] : [])))];
  const answers = chat.messages.filter((m) => m.type === "gemini" && geminiText(m.content) !== "");
  const last = answers.at(-1);
  return {
    file: chat.path,
    cli: "gemini",
    sessionId: chat.sessionId,
    cwd: null,
    cliVersion: null,
    model: models.at(-1) ?? null,
    models,
    permissionModes: [],
    sandboxPolicies: [],
    calls: chat.toolCalls.map(geminiCall),
    finalText: last === undefined ? null : clip(geminiText(last.content), 2000),
    usage: null,
    lineCount: chat.lineCount,
    drift: chat.drift,
    warnings: driftWarnings(chat.path, chat.drift),
    sidechains: [],
  };
}

function qwenCall(call: QwenToolCall): ReportCall {
  const judged = classifyQwenCall({ wire: null, recorded: qwenRecorded(call) });
  const { outcome } = judged;
  return {
    line: call.line,
    id: call.callId,
    name: call.name ?? "(unnamed)",
    inputSummary: summarizeInput(call.args),
    outcome,
    because: phrase(judged.because),
    exitCode: call.exitCode,
    resultExcerpt: outcome === "ran" ? "" : call.resultExcerpt,
  };
}

/** The report of a Qwen Code chat file. */
export function qwenReport(chat: QwenChat): SessionReport {
  return {
    file: chat.path,
    cli: "qwen",
    sessionId: chat.sessionId,
    cwd: chat.cwd,
    cliVersion: chat.version,
    model: chat.models.at(-1) ?? null,
    models: chat.models,
    permissionModes: [],
    sandboxPolicies: [],
    calls: chat.toolCalls.map(qwenCall),
    finalText: chat.finalText,
    usage: null,
    lineCount: chat.lineCount,
    drift: chat.drift,
    warnings: driftWarnings(chat.path, chat.drift),
    sidechains: [],
  };
}

/** The report of a pi session file. */
export function piReport(session: PiSession): SessionReport {
  const results = new Map(session.toolResults.map((r) => [r.toolCallId, r]));
  const models = [...new Set(session.models.map((m) => `${m.provider}/${m.modelId}`))];
  return {
    file: session.path,
    cli: "pi",
    sessionId: session.header?.id ?? null,
    cwd: session.header?.cwd ?? null,
    cliVersion: null,
    model: models.at(-1) ?? null,
    models,
    permissionModes: [],
    sandboxPolicies: [],
    calls: session.toolCalls.map((call) => {
      const result = results.get(call.id);
      const judged = classifyPiCall({ wire: null, recorded: piRecorded(result) });
      const outcome = judged.outcome;
      const exitCode = piExitCode(result?.text ?? "");
      return {
        line: call.line,
        id: call.id,
        name: call.name,
        inputSummary: summarizeInput(call.arguments),
        outcome,
        because: phrase(judged.because),
        exitCode,
        resultExcerpt: resultExcerpt(outcome, result?.text ?? ""),
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

/** The report of an opencode (or Kilo) database: its newest session (rows are numbered per table). */
export function opencodeReport(
  db: OpencodeDb,
  cli: "opencode" | "kilo" = "opencode",
): SessionReport {
  const session = db.sessions.at(-1) ?? null;
  const model = session?.model as { id?: unknown; providerID?: unknown } | null | undefined;
  const modelName =
    typeof model?.id === "string"
      ? typeof model.providerID === "string"
        ? `${model.providerID}/${model.id}`
        : model.id
      : null;
  const calls = db.toolCalls.filter((c) => session === null || c.sessionId === session.id);
  return {
    file: db.path,
    cli,
    sessionId: session?.id ?? null,
    cwd: session?.directory ?? null,
    cliVersion: session?.version ?? null,
    model: modelName,
    models: modelName === null ? [] : [modelName],
    permissionModes: [],
    sandboxPolicies: [],
    calls: calls.map((call, i) => {
      const judged = classifyOpencodeCall({ wire: null, recorded: opencodeRecorded(call) });
      const outcome = judged.outcome;
      return {
        line: i + 1,
        id: call.callId,
        name: call.tool,
        inputSummary: summarizeInput(call.input),
        outcome,
        because: phrase(judged.because),
        exitCode: call.exit,
        resultExcerpt: resultExcerpt(outcome, call.output ?? call.error ?? ""),
      };
    }),
    finalText: db.finalText === null ? null : clip(db.finalText, 2000),
    usage: null,
    lineCount: db.messageCount,
    drift: db.drift,
    warnings: driftWarnings(db.path, db.drift),
    sidechains: [],
  };
}

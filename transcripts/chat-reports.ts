// Gemini CLI and Qwen Code chats, pi sessions and opencode databases as `witness transcript`
// reports them. None of them records an approval mode per turn; a call's outcome comes from the
// status or wording the CLI wrote for it.
import { driftWarnings } from "./drift.js";
import type { GeminiChat, GeminiToolCall } from "./gemini-chat.js";
import { GEMINI_DENIED } from "./gemini-chat.js";
import { opencodeCallOutcome, type OpencodeDb } from "./opencode-session.js";
import { piExitCode, piResultOutcome, type PiSession } from "./pi-session.js";
import type { QwenChat, QwenToolCall } from "./qwen-chat.js";
import {
  type CallOutcome,
  clip,
  resultExcerpt,
  statedExitCode,
  summarizeInput,
} from "./session-facts.js";
import type { ReportCall, SessionReport } from "./session-report.js";

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    return value.map((part) => textOf((part as { text?: unknown })?.text ?? part)).join("");
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

function geminiResultText(result: unknown): string {
  const first = Array.isArray(result) ? (result[0] as Record<string, unknown>) : null;
  const response = (first?.functionResponse as { response?: Record<string, unknown> })?.response;
  return textOf(response?.output ?? response?.error ?? "");
}

function geminiCall(call: GeminiToolCall): ReportCall {
  const text = geminiResultText(call.result);
  const exitCode = statedExitCode(text);
  let outcome: CallOutcome = "unknown";
  if (call.status === "error")
    outcome = /not found/i.test(text)
      ? "no-such-tool"
      : GEMINI_DENIED.test(text)
        ? "denied"
        : "error";
  else if (call.status === "success")
    outcome = exitCode === null || exitCode === 0 ? "ran" : "error";
  return {
    line: call.line,
    id: call.id,
    name: call.name,
    inputSummary: summarizeInput(call.args),
    outcome,
    because: call.status === null ? "no status recorded" : `status ${call.status}`,
    exitCode,
    resultExcerpt: resultExcerpt(outcome, text),
  };
}

/** The report of a Gemini CLI chat file. */
export function geminiReport(chat: GeminiChat): SessionReport {
  const models = [...new Set(chat.messages.flatMap((m) => (m.model ? [m.model] : [])))];
  const answers = chat.messages.filter((m) => m.type === "gemini" && textOf(m.content) !== "");
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
    finalText: last === undefined ? null : clip(textOf(last.content), 2000),
    usage: null,
    lineCount: chat.lineCount,
    drift: chat.drift,
    warnings: driftWarnings(chat.path, chat.drift),
    sidechains: [],
  };
}

function qwenOutcome(call: QwenToolCall): { outcome: CallOutcome; because: string } {
  if (call.errorType === "execution_denied") return { outcome: "denied", because: "errorType" };
  if (call.errorType === "tool_not_registered")
    return { outcome: "no-such-tool", because: "errorType" };
  if (call.executionStatus === "success") return { outcome: "ran", because: "executionStatus" };
  if (call.executionStatus === "error") return { outcome: "error", because: "executionStatus" };
  if (call.errorType !== null) return { outcome: "error", because: "errorType" };
  return { outcome: "unknown", because: "no result recorded" };
}

function qwenCall(call: QwenToolCall): ReportCall {
  const { outcome, because } = qwenOutcome(call);
  return {
    line: call.line,
    id: call.callId,
    name: call.name ?? "(unnamed)",
    inputSummary: summarizeInput(call.args),
    outcome,
    because,
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
      const outcome = result === undefined ? "unknown" : piResultOutcome(result);
      const exitCode = piExitCode(result?.text ?? "");
      return {
        line: call.line,
        id: call.id,
        name: call.name,
        inputSummary: summarizeInput(call.arguments),
        outcome,
        because: result === undefined ? "no result recorded" : "isError and wording",
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

/** The report of an opencode database: its newest session (rows are numbered per table). */
export function opencodeReport(db: OpencodeDb): SessionReport {
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
    cli: "opencode",
    sessionId: session?.id ?? null,
    cwd: session?.directory ?? null,
    cliVersion: session?.version ?? null,
    model: modelName,
    models: modelName === null ? [] : [modelName],
    permissionModes: [],
    sandboxPolicies: [],
    calls: calls.map((call, i) => {
      const outcome = opencodeCallOutcome(call);
      return {
        line: i + 1,
        id: call.callId,
        name: call.tool,
        inputSummary: summarizeInput(call.input),
        outcome,
        because: `status ${call.status}`,
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

// One view of a session whatever CLI wrote it: what `witness transcript` prints, and what a new
// CLI's reader can return too.
import type { ClaudeSession } from "./claude-session.js";
import type { CodexRollout } from "./codex-rollout.js";
import { type Drift, driftWarnings } from "./drift.js";
import type { TokenUsage, TranscriptCall } from "./session-facts.js";

/** A call as the report lists it. */
export type ReportCall = Pick<
  TranscriptCall,
  "line" | "id" | "name" | "inputSummary" | "outcome" | "because" | "exitCode" | "resultExcerpt"
>;

/** A session as `witness transcript` reports it. */
export interface SessionReport {
  file: string;
  /** The CLI that wrote the file (`claude-code`, `codex`, or a newer reader's name). */
  cli: string;
  sessionId: string | null;
  cwd: string | null;
  cliVersion: string | null;
  /** The last model named, and every model in first-seen order. */
  model: string | null;
  models: string[];
  /** Per turn, the permission mode (Claude Code) or approval policy (Codex) it ran under. */
  permissionModes: { line: number; mode: string }[];
  /** Per turn, the sandbox policy (Codex). */
  sandboxPolicies: { line: number; policy: string }[];
  calls: ReportCall[];
  finalText: string | null;
  usage: TokenUsage | null;
  lineCount: number;
  drift: Drift;
  /** The drift as `file:line: …` lines. */
  warnings: string[];
  /** Sub-agents' own files (Claude Code sidechains), read as children of this session. */
  sidechains: SessionReport[];
}

function call(c: TranscriptCall): ReportCall {
  const { line, id, name, inputSummary, outcome, because, exitCode, resultExcerpt } = c;
  return { line, id, name, inputSummary, outcome, because, exitCode, resultExcerpt };
}

/** The report of a Claude Code session and its sidechains. */
export function claudeReport(
  session: ClaudeSession,
  sidechains: ClaudeSession[] = [],
): SessionReport {
  return {
    file: session.path,
    cli: "claude-code",
    sessionId: session.sessionId,
    cwd: session.cwd,
    cliVersion: session.version,
    model: session.models.at(-1) ?? null,
    models: session.models,
    permissionModes: session.permissionModes,
    sandboxPolicies: [],
    calls: session.calls.map(call),
    finalText: session.finalText,
    usage: session.usage,
    lineCount: session.lineCount,
    drift: session.drift,
    warnings: driftWarnings(session.path, session.drift),
    sidechains: sidechains.map((side) => claudeReport(side)),
  };
}

/** The report of a Codex rollout. */
export function codexReport(rollout: CodexRollout): SessionReport {
  const meta = rollout.sessionMeta;
  const turns = rollout.turnContexts;
  return {
    file: rollout.path,
    cli: "codex",
    sessionId: meta?.id ?? null,
    cwd: meta?.cwd ?? null,
    cliVersion: meta?.cliVersion ?? null,
    model: rollout.models.at(-1) ?? null,
    models: rollout.models,
    permissionModes: turns.flatMap((t) =>
      t.approvalPolicy === null ? [] : [{ line: t.line, mode: t.approvalPolicy }],
    ),
    sandboxPolicies: turns.map((t) => ({ line: t.line, policy: t.sandboxPolicy })),
    calls: rollout.calls.map(call),
    finalText: rollout.finalText,
    usage: rollout.usage,
    lineCount: rollout.lineCount,
    drift: rollout.drift,
    warnings: driftWarnings(rollout.path, rollout.drift),
    sidechains: [],
  };
}

// Codex rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl), typed for witness.
import type { CodexCall, CodexCommand } from "./codex-calls.js";
import { CodexReader } from "./codex-reader.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, streamJsonl } from "./jsonl-stream.js";
import type { TokenUsage } from "./session-facts.js";

export type { CodexCall, CodexCommand } from "./codex-calls.js";
export { CODEX_KNOWN_TYPES } from "./codex-records.js";

/** The rollout's `session_meta` line. */
export interface CodexSessionMeta {
  id: string;
  cwd: string | null;
  cliVersion: string | null;
  originator: string | null;
  modelProvider: string | null;
}

/** One `turn_context` line: the policies a turn (0.58 – 0.96: a model request) ran under. */
export interface CodexTurnContext {
  line: number;
  turnId: string | null;
  /** e.g. `never`; kept as JSON text when it is not a plain string. */
  approvalPolicy: string | null;
  /** `read-only`, `workspace-write` or `danger-full-access` (`type`, or 0.58's `mode`). */
  sandboxPolicy: string;
  cwd: string | null;
  model: string | null;
}

/** One Codex rollout, as far as witness relies on it. */
export interface CodexRollout {
  path: string;
  sessionMeta: CodexSessionMeta | null;
  lineCount: number;
  /** Lines per top-level `type`, known and unknown. */
  recordCounts: Record<string, number>;
  /** Lines per `type/payload.type` of event_msg and response_item lines. */
  payloadCounts: Record<string, number>;
  turnContexts: CodexTurnContext[];
  /** The last turn context in the file, or null when there is none. */
  latestTurnContext: CodexTurnContext | null;
  /** Models named by the turn contexts, in first-seen order. */
  models: string[];
  /** Every tool call of every family, in file order, with its output and outcome. */
  calls: CodexCall[];
  /** Every CommandExecution event (0.148+), also attached to its call. */
  commands: CodexCommand[];
  /** The last assistant message's text. */
  finalText: string | null;
  /** The last cumulative token count the CLI recorded. */
  usage: TokenUsage | null;
  markersSeen: string[];
  drift: Drift;
}

/** Options of readCodexRollout. */
export interface ReadRolloutOptions {
  /** Values to look for in every line (marker search). */
  markers?: readonly string[];
}

/** Reads a Codex rollout JSONL file; what it cannot use is reported in `drift`, never thrown. */
export async function readCodexRollout(
  path: string,
  options: ReadRolloutOptions = {},
): Promise<CodexRollout> {
  const drift = new DriftLog();
  const reader = new CodexReader(path, drift);
  const search = new MarkerSearch(options.markers ?? []);
  const summary = await streamJsonl(path, ({ line, value }) => reader.line(line, value), {
    drift,
    onText: (text) => search.scan(text),
  });
  return reader.finish(summary.lineCount, search.seen(), drift.result());
}

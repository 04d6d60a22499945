// Claude Code session transcript ($HOME/.claude/projects/<slug>/<session>.jsonl), typed for witness.
import type { ClaudeCall } from "./claude-calls.js";
import { ClaudeReader } from "./claude-reader.js";
import { type Drift, DriftLog } from "./drift.js";
import { MarkerSearch, streamJsonl } from "./jsonl-stream.js";
import type { TokenUsage } from "./session-facts.js";

export type { ClaudeCall } from "./claude-calls.js";
export { CLAUDE_KNOWN_TYPES, type ClaudePermissionDecision } from "./claude-records.js";

/** A memory file the CLI loaded (an `instructions` attachment entry, 2.1.282+). */
export interface ClaudeInstructionFile {
  line: number;
  path: string;
  /** User, Project or Local. */
  type: string;
  content: string;
}

/** One Claude Code session file (the main session or a sidechain), as far as witness relies on it. */
export interface ClaudeSession {
  path: string;
  sessionId: string | null;
  version: string | null;
  cwd: string | null;
  /** True when the records say `isSidechain: true` (a sub-agent's own file). */
  isSidechain: boolean;
  /** The sub-agent's id on a sidechain's records. */
  agentId: string | null;
  lineCount: number;
  /** Records per `type`, known and unknown. */
  recordCounts: Record<string, number>;
  /** The latest prompt record's permissionMode (recorded from 2.1.17 on). */
  permissionMode: string | null;
  /** Every prompt record's permissionMode, in file order: one per turn. */
  permissionModes: { line: number; mode: string }[];
  /** Models named by the assistant messages, in first-seen order. */
  models: string[];
  calls: ClaudeCall[];
  /** The text of the last assistant message that has text. */
  finalText: string | null;
  /** Tokens over all assistant messages (each message counted once). */
  usage: TokenUsage | null;
  instructions: ClaudeInstructionFile[];
  /** The text of each `skill_listing` attachment. */
  skillListings: string[];
  /** Marker values (given in the options) found anywhere in the file. */
  markersSeen: string[];
  /** Lines not (fully) read: not JSON, unknown types, missing fields. */
  drift: Drift;
}

/** Options of readClaudeSession. */
export interface ReadSessionOptions {
  /** Values to look for in every line (marker search). */
  markers?: readonly string[];
}

/** Reads a Claude Code session JSONL file; what it cannot use is reported in `drift`, never thrown. */
export async function readClaudeSession(
  path: string,
  options: ReadSessionOptions = {},
): Promise<ClaudeSession> {
  const drift = new DriftLog();
  const reader = new ClaudeReader(path, drift);
  const search = new MarkerSearch(options.markers ?? []);
  const summary = await streamJsonl(path, ({ line, value }) => reader.record(line, value), {
    drift,
    onText: (text) => search.scan(text),
  });
  return reader.finish(summary.lineCount, search.seen(), drift.result());
}

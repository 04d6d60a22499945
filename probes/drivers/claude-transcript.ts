// Claude Code's transcript as the observer uses it: the main session the run reported, read once.
import type { RecordedCall } from "../../clis/outcome.js";
import { readClaudeSession } from "../../transcripts/claude-session.js";
import { driftWarnings } from "../../transcripts/drift.js";
import { claudeConfigDir, locateClaudeSession } from "../../transcripts/locate.js";
import { noTranscript, type TranscriptFacts, type TranscriptHints } from "./driver.js";

/** The `session_id` of `--output-format json` (or a stream-json line), when stdout has one. */
export function claudeReportedSessionId(stdout: string): string | null {
  for (const line of stdout.split("\n").reverse()) {
    const match = /"session_id"\s*:\s*"([A-Za-z0-9_-]+)"/.exec(line);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** Finds the run's main session (never a sidechain) and reads what the observer needs from it. */
export async function readClaudeTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const configDir = claudeConfigDir(env);
  const path =
    configDir === null
      ? null
      : await locateClaudeSession(configDir, claudeReportedSessionId(hints.stdout));
  if (path === null) return noTranscript();
  const session = await readClaudeSession(path, { markers: hints.markers });
  const calls = new Map<string, RecordedCall>();
  for (const call of session.calls) {
    const decision = call.permissionDecision?.decision ?? null;
    calls.set(call.id, { decision, denialKind: call.toolDenialKind });
  }
  return {
    path,
    markersSeen: new Set(session.markersSeen),
    permissionMode: session.permissionMode,
    permissionModes: session.permissionModes.map((m) => m.mode),
    sandboxPolicy: null,
    sandboxPolicies: [],
    calls,
    outcomes: new Map(session.calls.map((call) => [call.id, call.outcome])),
    model: session.models.at(-1) ?? null,
    tokenUsage: session.usage,
    finalText: session.finalText,
    warnings: driftWarnings(path, session.drift),
  };
}

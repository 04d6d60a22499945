// Codex's rollout as the observer uses it: the thread the run reported, read once.
import { readCodexRollout } from "../../transcripts/codex-rollout.js";
import { driftWarnings } from "../../transcripts/drift.js";
import { codexHomeDir, findCodexRollout, newestCodexRollout } from "../../transcripts/locate.js";
import { noTranscript, type TranscriptFacts, type TranscriptHints } from "./driver.js";

/** The thread id `codex exec` reported: its banner's `session id:` or `--json`'s `thread_id`. */
export function codexReportedThreadId(stdout: string, stderr: string): string | null {
  const banner =
    /^session id: ([0-9a-zA-Z-]+)$/m.exec(stderr) ?? /^session id: ([0-9a-zA-Z-]+)$/m.exec(stdout);
  if (banner?.[1]) return banner[1];
  const json = /"thread_id"\s*:\s*"([0-9a-zA-Z-]+)"/.exec(stdout);
  return json?.[1] ?? null;
}

/** Finds the run's rollout (by the thread id it reported, else the newest) and reads it. */
export async function readCodexTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const home = codexHomeDir(env);
  if (home === null) return noTranscript();
  const thread = codexReportedThreadId(hints.stdout, hints.stderr);
  const path =
    thread === null ? await newestCodexRollout(home) : await findCodexRollout(home, thread);
  if (path === null) return noTranscript();
  const rollout = await readCodexRollout(path, { markers: hints.markers });
  const turn = rollout.latestTurnContext;
  return {
    path,
    markersSeen: new Set(rollout.markersSeen),
    permissionMode: turn?.approvalPolicy ?? null,
    permissionModes: rollout.turnContexts.flatMap((t) =>
      t.approvalPolicy === null ? [] : [t.approvalPolicy],
    ),
    sandboxPolicy: turn?.sandboxPolicy ?? null,
    sandboxPolicies: rollout.turnContexts.map((t) => t.sandboxPolicy),
    calls: new Map(
      rollout.calls.map((call) => [
        call.id,
        {
          exitCode: call.exitCode,
          refusal: call.commands.find((c) => c.sandboxRefusal !== null)?.sandboxRefusal ?? null,
        },
      ]),
    ),
    outcomes: new Map(rollout.calls.map((call) => [call.id, call.outcome])),
    model: rollout.models.at(-1) ?? null,
    tokenUsage: rollout.usage,
    finalText: rollout.finalText,
    warnings: driftWarnings(path, rollout.drift),
  };
}

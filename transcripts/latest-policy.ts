// The policy a session runs under now: the last record that sets it, read from the end of the
// file (a session of hundreds of megabytes answers in milliseconds).
import { claudeUserRecordSchema } from "./claude-records.js";
import {
  approvalPolicyText,
  codexLineSchema,
  codexTurnContextSchema,
  sandboxPolicyText,
} from "./codex-records.js";
import { latestRecord } from "./latest-record.js";

/** The last permission mode a Claude Code session recorded, and where its line starts. */
export interface LatestClaudeMode {
  mode: string;
  /** Byte offset of the prompt record's line. */
  offset: number;
}

/** The last turn context of a Codex rollout, and where its line starts. */
export interface LatestCodexTurn {
  /** `type` (or 0.58's `mode`) of its sandbox_policy. */
  sandboxPolicy: string;
  approvalPolicy: string | null;
  offset: number;
}

/** The last main-session prompt record's permissionMode (recorded from 2.1.17 on), or null. */
export async function latestClaudePermissionMode(path: string): Promise<LatestClaudeMode | null> {
  const found = await latestRecord(path, {
    needle: '"permissionMode"',
    accept: (value) => {
      const record = claudeUserRecordSchema.safeParse(value);
      if (!record.success || record.data.isSidechain === true) return null;
      return record.data.permissionMode ?? null;
    },
  });
  return found === null ? null : { mode: found.value, offset: found.offset };
}

/** The last turn_context of a rollout, or null when it has none that reads. */
export async function latestCodexTurnContext(path: string): Promise<LatestCodexTurn | null> {
  // Every version seen (0.58 – 0.171) writes `{"timestamp":…,["ordinal":…,]"type":…` first.
  const found = await latestRecord(path, {
    needle: '"type":"turn_context"',
    within: 160,
    accept: (value) => {
      const line = codexLineSchema.safeParse(value);
      if (!line.success || line.data.type !== "turn_context") return null;
      const context = codexTurnContextSchema.safeParse(line.data.payload);
      if (!context.success) return null;
      return {
        sandboxPolicy: sandboxPolicyText(context.data.sandbox_policy),
        approvalPolicy: approvalPolicyText(context.data.approval_policy),
      };
    },
  });
  return found === null ? null : { ...found.value, offset: found.offset };
}

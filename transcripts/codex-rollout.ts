// Codex rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl), typed for witness.
import { z } from "zod";

import { zodIssues } from "../core/read-input.js";
import {
  CODEX_KNOWN_TYPES,
  codexCommandItemSchema,
  codexCustomCallSchema,
  codexCustomOutputSchema,
  codexLineSchema,
  codexSessionMetaSchema,
  codexTurnContextSchema,
} from "./codex-records.js";
import { type BrokenLine, recordType, streamJsonl, tally } from "./jsonl-stream.js";

export { CODEX_KNOWN_TYPES } from "./codex-records.js";

/** The rollout's `session_meta` line. */
export interface CodexSessionMeta {
  id: string;
  cwd: string | null;
  cliVersion: string | null;
  originator: string | null;
  modelProvider: string | null;
}

/** One `turn_context` line: the policies a turn ran under. */
export interface CodexTurnContext {
  line: number;
  turnId: string | null;
  /** e.g. `never`; kept as written when it is not a plain string. */
  approvalPolicy: string | null;
  /** `read-only`, `workspace-write` or `danger-full-access`. */
  sandboxPolicy: string;
  cwd: string | null;
  model: string | null;
}

/** A command Codex reports it executed (`event_msg` item_completed, item type CommandExecution). */
export interface CodexCommand {
  line: number;
  id: string;
  command: string[];
  cwd: string | null;
  status: string | null;
  exitCode: number | null;
  output: string;
}

/** A custom tool call the model made (Codex's `exec` tool holding JavaScript). */
export interface CodexCustomToolCall {
  line: number;
  callId: string;
  name: string;
  input: string;
  status: string | null;
}

/** The text returned to the model for a custom tool call. */
export interface CodexCustomToolOutput {
  line: number;
  callId: string;
  text: string;
}

/** One Codex rollout, as far as witness relies on it. */
export interface CodexRollout {
  path: string;
  sessionMeta: CodexSessionMeta | null;
  lineCount: number;
  /** Lines per top-level `type`, known and unknown. */
  recordCounts: Record<string, number>;
  unknownRecords: { line: number; type: string | null; value: unknown }[];
  turnContexts: CodexTurnContext[];
  /** The last turn context in the file, or null when there is none. */
  latestTurnContext: CodexTurnContext | null;
  commands: CodexCommand[];
  customToolCalls: CodexCustomToolCall[];
  customToolOutputs: CodexCustomToolOutput[];
  broken: BrokenLine[];
  rawText: string;
}

/** Reads a Codex rollout JSONL file; bad lines are reported in `broken`, never thrown. */
export async function readCodexRollout(path: string): Promise<CodexRollout> {
  const rollout: CodexRollout = {
    path,
    sessionMeta: null,
    lineCount: 0,
    recordCounts: {},
    unknownRecords: [],
    turnContexts: [],
    latestTurnContext: null,
    commands: [],
    customToolCalls: [],
    customToolOutputs: [],
    broken: [],
    rawText: "",
  };
  const fail = (line: number, what: string, error: z.ZodError): void => {
    const detail = zodIssues(error).map((i) => `${i.path || "(record)"}: ${i.message}`);
    rollout.broken.push({ line, error: `${what}: ${detail.join("; ")}` });
  };
  const summary = await streamJsonl(path, ({ line, value }) => {
    const type = recordType(value);
    tally(rollout.recordCounts, type ?? "(no type)");
    if (type === null || !CODEX_KNOWN_TYPES.includes(type)) {
      rollout.unknownRecords.push({ line, type, value });
      return;
    }
    const parsed = codexLineSchema.safeParse(value);
    if (!parsed.success) return fail(line, `${type} line`, parsed.error);
    const payload: unknown = parsed.data.payload;
    if (type === "session_meta") {
      const meta = codexSessionMetaSchema.safeParse(payload);
      if (!meta.success) return fail(line, "session_meta payload", meta.error);
      rollout.sessionMeta ??= {
        id: meta.data.id,
        cwd: meta.data.cwd ?? null,
        cliVersion: meta.data.cli_version ?? null,
        originator: meta.data.originator ?? null,
        modelProvider: meta.data.model_provider ?? null,
      };
    } else if (type === "turn_context") {
      const context = codexTurnContextSchema.safeParse(payload);
      if (!context.success) return fail(line, "turn_context payload", context.error);
      const turn: CodexTurnContext = {
        line,
        turnId: context.data.turn_id ?? null,
        approvalPolicy: policyText(context.data.approval_policy),
        sandboxPolicy: context.data.sandbox_policy.type,
        cwd: context.data.cwd ?? null,
        model: context.data.model ?? null,
      };
      rollout.turnContexts.push(turn);
      rollout.latestTurnContext = turn;
    } else if (type === "event_msg") {
      readEvent(rollout, line, payload);
    } else if (type === "response_item") {
      readResponseItem(rollout, line, payload);
    }
  });
  rollout.lineCount = summary.lineCount;
  rollout.broken = [...summary.broken, ...rollout.broken].sort((a, b) => a.line - b.line);
  rollout.rawText = summary.rawText;
  return rollout;
}

function readEvent(rollout: CodexRollout, line: number, payload: unknown): void {
  const event = z
    .looseObject({ type: z.literal("item_completed"), item: codexCommandItemSchema })
    .safeParse(payload);
  if (!event.success) return;
  const item = event.data.item;
  rollout.commands.push({
    line,
    id: item.id,
    command: typeof item.command === "string" ? [item.command] : item.command,
    cwd: item.cwd ?? null,
    status: item.status ?? null,
    exitCode: item.exit_code ?? null,
    output: item.aggregated_output ?? "",
  });
}

function readResponseItem(rollout: CodexRollout, line: number, payload: unknown): void {
  const call = codexCustomCallSchema.safeParse(payload);
  if (call.success) {
    const { call_id, name, input, status } = call.data;
    rollout.customToolCalls.push({ line, callId: call_id, name, input, status: status ?? null });
    return;
  }
  const output = codexCustomOutputSchema.safeParse(payload);
  if (output.success) {
    const text =
      typeof output.data.output === "string"
        ? output.data.output
        : output.data.output.map((part) => part.text ?? "").join("");
    rollout.customToolOutputs.push({ line, callId: output.data.call_id, text });
  }
}

function policyText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

// The line-by-line reading of a Codex rollout: what readCodexRollout streams through.
import type { z } from "zod";

import { codexSandboxWording } from "../clis/codex/wordings.js";
import { CodexCallTable, type CodexCommand } from "./codex-calls.js";
import {
  approvalPolicyText,
  CODEX_KNOWN_EVENT_ITEMS,
  CODEX_KNOWN_EVENTS,
  CODEX_KNOWN_ITEMS,
  CODEX_KNOWN_TYPES,
  codexCallOutputSchema,
  codexCommandItemSchema,
  codexCustomCallSchema,
  codexFunctionCallSchema,
  codexLineSchema,
  codexLocalShellCallSchema,
  codexMessageSchema,
  codexSessionMetaSchema,
  codexTokenCountSchema,
  codexTurnContextSchema,
  sandboxPolicyText,
} from "./codex-records.js";
import type { CodexRollout, CodexTurnContext } from "./codex-rollout.js";
import { type Drift, type DriftLog, keysOf, noDrift } from "./drift.js";
import { recordType, tally } from "./jsonl-stream.js";
import { clip, phrase } from "./session-facts.js";

/** Reads one rollout's lines in file order; `finish` returns the rollout. */
export class CodexReader {
  private readonly rollout: CodexRollout;
  private readonly calls: CodexCallTable;

  constructor(
    path: string,
    private readonly drift: DriftLog,
  ) {
    this.calls = new CodexCallTable(drift);
    this.rollout = {
      path,
      sessionMeta: null,
      lineCount: 0,
      recordCounts: {},
      payloadCounts: {},
      turnContexts: [],
      latestTurnContext: null,
      models: [],
      calls: [],
      commands: [],
      finalText: null,
      usage: null,
      markersSeen: [],
      drift: noDrift(),
    };
  }

  finish(lineCount: number, markersSeen: string[], drift: Drift): CodexRollout {
    return { ...this.rollout, lineCount, calls: this.calls.list(), markersSeen, drift };
  }

  line(line: number, value: unknown): void {
    const type = recordType(value);
    tally(this.rollout.recordCounts, type ?? "(no type)");
    if (type === null || !CODEX_KNOWN_TYPES.has(type)) {
      this.drift.noteUnknownType(line, type, value, "line");
      return;
    }
    const parsed = codexLineSchema.safeParse(value);
    if (!parsed.success) return this.drift.noteSchema(line, type, parsed.error);
    const payload: unknown = parsed.data.payload;
    if (type === "session_meta") this.sessionMeta(line, payload);
    else if (type === "turn_context") this.turnContext(line, payload);
    else if (type === "event_msg") this.event(line, payload);
    else if (type === "response_item") this.item(line, payload);
  }

  private parse<S extends z.ZodType>(
    line: number,
    subject: string,
    schema: S,
    value: unknown,
  ): z.infer<S> | null {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    this.drift.noteSchema(line, subject, result.error);
    return null;
  }

  /** The payload's type, counted; an unknown one is noted as drift and null is returned. */
  private payloadType(
    line: number,
    type: string,
    payload: unknown,
    known: ReadonlySet<string>,
  ): string | null {
    const sub = recordType(payload);
    tally(this.rollout.payloadCounts, `${type}/${sub ?? "(no type)"}`);
    if (sub !== null && known.has(sub)) return sub;
    const what = sub === null ? "without a type" : `of unknown type "${sub}"`;
    this.drift.note(
      line,
      "unknown-payload",
      `${type}/${sub ?? ""}`,
      `${type} payload ${what} (keys: ${keysOf(payload)})`,
    );
    return null;
  }

  private sessionMeta(line: number, payload: unknown): void {
    const meta = this.parse(line, "session_meta", codexSessionMetaSchema, payload);
    if (meta === null) return;
    this.rollout.sessionMeta ??= {
      id: meta.id,
      cwd: meta.cwd ?? null,
      cliVersion: meta.cli_version ?? null,
      originator: meta.originator ?? null,
      modelProvider: meta.model_provider ?? null,
    };
  }

  private turnContext(line: number, payload: unknown): void {
    const context = this.parse(line, "turn_context", codexTurnContextSchema, payload);
    if (context === null) return;
    const turn: CodexTurnContext = {
      line,
      turnId: context.turn_id ?? null,
      approvalPolicy: approvalPolicyText(context.approval_policy),
      sandboxPolicy: sandboxPolicyText(context.sandbox_policy),
      cwd: context.cwd ?? null,
      model: context.model ?? null,
    };
    this.rollout.turnContexts.push(turn);
    this.rollout.latestTurnContext = turn;
    if (turn.model !== null && !this.rollout.models.includes(turn.model))
      this.rollout.models.push(turn.model);
  }

  private event(line: number, payload: unknown): void {
    const type = this.payloadType(line, "event_msg", payload, CODEX_KNOWN_EVENTS);
    if (type === "token_count") {
      const count = this.parse(line, "event_msg/token_count", codexTokenCountSchema, payload);
      const total = count?.info?.total_token_usage;
      if (total)
        this.rollout.usage = {
          inputTokens: total.input_tokens ?? 0,
          outputTokens: total.output_tokens ?? 0,
          cachedInputTokens: total.cached_input_tokens ?? 0,
          cacheCreationInputTokens: 0,
        };
    } else if (type === "item_completed") {
      const item = (payload as { item?: unknown }).item;
      const itemType = this.payloadType(
        line,
        "event_msg/item_completed",
        item,
        CODEX_KNOWN_EVENT_ITEMS,
      );
      if (itemType !== "CommandExecution") return;
      const done = this.parse(
        line,
        "event_msg/item_completed/CommandExecution",
        codexCommandItemSchema,
        item,
      );
      if (done === null) return;
      const command: CodexCommand = {
        line,
        id: done.id,
        command: clip(
          typeof done.command === "string" ? done.command : done.command.join(" "),
          120,
        ),
        status: done.status === undefined ? null : phrase(done.status),
        exitCode: done.exit_code ?? null,
        sandboxRefusal: codexSandboxWording(done.aggregated_output ?? "")?.id ?? null,
      };
      this.rollout.commands.push(command);
      this.calls.command(command);
    }
  }

  private item(line: number, payload: unknown): void {
    const type = this.payloadType(line, "response_item", payload, CODEX_KNOWN_ITEMS);
    const subject = `response_item/${type ?? ""}`;
    if (type === "function_call") {
      const call = this.parse(line, subject, codexFunctionCallSchema, payload);
      if (call)
        this.calls.call(
          line,
          "function_call",
          call.call_id,
          call.name,
          functionInput(call.arguments),
        );
    } else if (type === "custom_tool_call") {
      const call = this.parse(line, subject, codexCustomCallSchema, payload);
      if (call) this.calls.call(line, "custom_tool_call", call.call_id, call.name, call.input);
    } else if (type === "local_shell_call") {
      const call = this.parse(line, subject, codexLocalShellCallSchema, payload);
      if (call)
        this.calls.call(line, "local_shell_call", call.call_id, "local_shell", {
          command: call.action.command,
        });
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      const output = this.parse(line, subject, codexCallOutputSchema, payload);
      if (output) this.calls.output(line, output.call_id, outputParts(output.output));
    } else if (type === "message") {
      const message = this.parse(line, subject, codexMessageSchema, payload);
      if (message?.role === "assistant")
        this.rollout.finalText = message.content.map((part) => part.text ?? "").join("");
    }
  }
}

/** A function call's arguments: the parsed JSON object, or the text when it is not JSON. */
function functionInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function outputParts(output: unknown): string[] {
  if (typeof output === "string") return [output];
  if (Array.isArray(output))
    return output.map((part) => ((part as { text?: unknown }).text as string | undefined) ?? "");
  return [JSON.stringify(output)];
}

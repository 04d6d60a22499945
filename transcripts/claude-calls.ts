// Claude Code tool calls: each tool_use joined with its tool_result, and how the call ended (the
// one classifier in clis/claude-code/outcome.ts, from the record's decision fields and wording).
import { classifyClaudeCall } from "../clis/claude-code/outcome.js";
import type { ClaudePermissionDecision, ClaudeToolResultBlock } from "./claude-records.js";
import type { DriftLog } from "./drift.js";
import { phrase, resultExcerpt, summarizeInput, type TranscriptCall } from "./session-facts.js";

/** A Claude Code tool call, with the decision fields its result record carried. */
export interface ClaudeCall extends TranscriptCall {
  /** `permissionDecision` of the result record (2.1.295+), or null. */
  permissionDecision: ClaudePermissionDecision | null;
  /** `toolDenialKind` of the result record (2.1.200+), e.g. `user-rejected`, or null. */
  toolDenialKind: string | null;
  /** The result's `is_error`, or null before a result. */
  isError: boolean | null;
}

/** What a result record says about one call, before it is judged. */
export interface ClaudeResultFacts {
  line: number;
  isError: boolean;
  text: string;
  permissionDecision: ClaudePermissionDecision | null;
  toolDenialKind: string | null;
}

/** The calls of one session in the order the model made them. */
export class ClaudeCallTable {
  private readonly byId = new Map<string, ClaudeCall>();

  constructor(private readonly drift: DriftLog) {}

  /** Records a tool_use block. */
  use(line: number, id: string, name: string, input: unknown): void {
    if (this.byId.has(id))
      return this.drift.note(
        line,
        "missing-field",
        "assistant/tool_use",
        `tool_use id ${id} repeated`,
      );
    this.byId.set(id, {
      line,
      id,
      // Tool names repeat thousands of times: one shared copy each.
      name: phrase(name),
      inputSummary: summarizeInput(input),
      outcome: "unknown",
      because: "no tool_result in the transcript",
      resultLine: null,
      resultExcerpt: "",
      exitCode: null,
      permissionDecision: null,
      toolDenialKind: null,
      isError: null,
    });
  }

  /** Records a tool_result block and judges its call. */
  result(block: ClaudeToolResultBlock, facts: ClaudeResultFacts): void {
    const call = this.byId.get(block.tool_use_id);
    if (call === undefined) {
      const detail = `tool_result for ${block.tool_use_id}, which no earlier tool_use has`;
      return this.drift.note(facts.line, "missing-field", "user/tool_result", detail);
    }
    const judged = classifyClaudeCall({
      wire: null,
      recorded: {
        decision: facts.permissionDecision?.decision ?? null,
        denialKind: facts.toolDenialKind,
        result: { isError: facts.isError, text: facts.text },
      },
    });
    Object.assign(call, {
      outcome: judged.outcome,
      because: phrase(judged.because),
      resultLine: facts.line,
      resultExcerpt: resultExcerpt(judged.outcome, facts.text),
      exitCode: claudeExitCode(facts),
      permissionDecision: facts.permissionDecision,
      toolDenialKind: facts.toolDenialKind,
      isError: facts.isError,
    });
  }

  /** Every call, in file order. */
  list(): ClaudeCall[] {
    return [...this.byId.values()];
  }
}

/** The exit status a failed Bash result starts with (`Exit code 3`), or null. */
export function claudeExitCode(result: Pick<ClaudeResultFacts, "isError" | "text">): number | null {
  const match = result.isError ? /^Exit code (-?\d+)\b/.exec(result.text) : null;
  return match ? Number(match[1]) : null;
}

/** The text of a tool_result's content: a string, or its text parts joined. */
export function claudeResultText(content: ClaudeToolResultBlock["content"]): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((part) => part.text ?? "").join("\n");
}

// Codex tool calls: every call family (function_call, custom_tool_call, local_shell_call) joined
// with its output by call_id into one ordered list, and how each call ended.
import { classifyCodexCall } from "../clis/codex/outcome.js";
import { codexExitCode } from "../clis/codex/wordings.js";
import type { DriftLog } from "./drift.js";
import { phrase, resultExcerpt, summarizeInput, type TranscriptCall } from "./session-facts.js";

/** A command Codex reports it executed (`item_completed` CommandExecution, 0.148+). */
export interface CodexCommand {
  line: number;
  id: string;
  /** The argv, joined and cut to 120 characters. */
  command: string;
  status: string | null;
  exitCode: number | null;
  /** The sandbox wording its whole output matched (see codex-exit.ts), or null. */
  sandboxRefusal: string | null;
}

/** A Codex tool call, whichever item family carried it. */
export interface CodexCall extends TranscriptCall {
  /** The response item type that carried the call. */
  family: "function_call" | "custom_tool_call" | "local_shell_call";
  /** Commands the CLI reported running between the call and its output (0.148+). */
  commands: CodexCommand[];
}

/** The command an `exec` tool's JavaScript passes to `tools.exec_command({cmd: "…"})`, if one. */
export function execCommand(input: unknown): string | null {
  if (typeof input !== "string") return null;
  const match = /exec_command\(\{\s*cmd:\s*("(?:[^"\\]|\\.)*")/.exec(input);
  if (!match?.[1]) return null;
  try {
    return summarizeInput({ cmd: JSON.parse(match[1]) as unknown });
  } catch {
    return null;
  }
}

/** The calls of one rollout in the order the model made them. */
export class CodexCallTable {
  private readonly byId = new Map<string, CodexCall>();
  /** Calls without an output yet, oldest first: commands reported meanwhile belong to them. */
  private readonly open: CodexCall[] = [];

  constructor(private readonly drift: DriftLog) {}

  /** Records a call item; `input` is what the model sent (arguments, JavaScript, argv). */
  call(line: number, family: CodexCall["family"], id: string, name: string, input: unknown): void {
    if (this.byId.has(id)) return;
    const call: CodexCall = {
      line,
      id,
      // Tool names repeat thousands of times: one shared copy each.
      name: phrase(name),
      family,
      inputSummary: execCommand(input) ?? summarizeInput(input),
      outcome: "unknown",
      because: "no output in the rollout",
      resultLine: null,
      resultExcerpt: "",
      exitCode: null,
      commands: [],
    };
    this.byId.set(id, call);
    this.open.push(call);
  }

  /** Records a command the CLI ran, on the latest call still waiting for its output. */
  command(command: CodexCommand): void {
    const call = this.open.at(-1);
    if (call === undefined) {
      const detail = `CommandExecution ${command.id} outside any tool call`;
      return this.drift.note(command.line, "missing-field", "event_msg/item_completed", detail);
    }
    call.commands.push(command);
  }

  /** Records an output item and judges its call. */
  output(line: number, id: string, parts: readonly string[]): void {
    const call = this.byId.get(id);
    if (call === undefined) {
      const detail = `output for call_id ${id}, which no earlier call has`;
      return this.drift.note(line, "missing-field", "response_item/output", detail);
    }
    const index = this.open.indexOf(call);
    if (index >= 0) this.open.splice(index, 1);
    const text = parts.join("\n");
    const reading = codexExitCode(parts);
    const commandExit = call.commands.findLast((c) => c.exitCode !== null)?.exitCode ?? null;
    const exitCode = reading?.code ?? commandExit;
    // A command's own output (0.148+) says what the sandbox did even when the tool's text does not.
    const refusal = call.commands.find((c) => c.sandboxRefusal !== null)?.sandboxRefusal ?? null;
    const judged = classifyCodexCall({
      wire: null,
      recorded: { exitCode, refusal, result: { isError: false, text } },
    });
    Object.assign(call, {
      outcome: judged.outcome,
      because: phrase(judged.because),
      resultLine: line,
      resultExcerpt: resultExcerpt(judged.outcome, text),
      exitCode,
    });
  }

  /** Every call, in file order. */
  list(): CodexCall[] {
    return [...this.byId.values()];
  }
}

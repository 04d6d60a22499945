// opencode, pi and Cursor argv: model, prompt, and what each can render (Gemini CLI and Qwen Code: gemini-qwen.ts).
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import { piAmbientFiles, piAppendedPrompt } from "../policy/ambient-context.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

function common(input: RenderInput, extra: readonly ("effort" | "filesystem")[]): Diagnostic[] {
  return notRendered(input, [...TOOL_FIELDS, ...extra]);
}

/**
 * opencode: `opencode run -m <model>`, the prompt on stdin: as arguments it would wrap words with
 * spaces in quotes, and a word starting with `-` would be an option; stdin arrives verbatim.
 */
export function renderOpencode(input: RenderInput): Rendered {
  const args = ["run"];
  if (input.node.model !== undefined) args.push("-m", input.node.model);
  return {
    file: "opencode",
    args,
    env: {},
    stdin: input.prompt,
    diagnostics: common(input, ["effort", "filesystem"]),
  };
}

/** pi: its own context walk is always off; the engine supplies the files ambient_context allows. */
export function renderPi(input: RenderInput): Rendered {
  const home = input.operatorHome ?? input.env.HOME;
  const agentDir =
    input.env.PI_CODING_AGENT_DIR ?? (home === undefined ? undefined : join(home, ".pi", "agent"));
  const files = piAmbientFiles(input.ambient.value, { root: input.root, cwd: input.cwd, agentDir });
  const args = ["-p", "--no-context-files"];
  if (files.length > 0) args.push("--append-system-prompt", piAppendedPrompt(files));
  if (input.node.model !== undefined) args.push("--model", input.node.model);
  if (input.node.effort !== undefined) args.push("--thinking", input.node.effort);
  // Given as an argument, a prompt starting with `-` is an option and one starting with `@` a
  // file, even after `--`; on stdin (with no positional) pi reads it verbatim.
  return {
    file: "pi",
    args,
    env: {},
    stdin: input.prompt,
    diagnostics: common(input, ["filesystem"]),
  };
}

/**
 * Cursor: `cursor-agent -p ... <prompt>`; full access is `--sandbox disabled`. How it parses a
 * prompt that starts with `-` was never measured, so such a prompt is refused, not risked.
 */
export function renderCursor(input: RenderInput): Rendered {
  if (input.prompt.startsWith("-"))
    throw new RefusalError(
      "prompt-not-data",
      `node ${input.node.id}: cursor-agent has no measured way to take a prompt that starts with "-" as a prompt rather than an option; reword it`,
    );
  const args = ["-p"];
  if (input.node.model !== undefined) args.push("--model", input.node.model);
  if (input.access.mode === "full-access") args.push("--sandbox", "disabled");
  args.push(input.prompt);
  return {
    file: "cursor-agent",
    args,
    env: {},
    diagnostics: common(input, ["effort", "filesystem"]),
  };
}

// Cursor argv: model, prompt and full access (opencode: opencode.ts, pi: pi.ts, Gemini CLI and Qwen Code: gemini-qwen.ts).
import { RefusalError } from "../../core/errors.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

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
    diagnostics: notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]),
  };
}

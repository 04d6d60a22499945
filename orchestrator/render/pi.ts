// pi argv: its own context walk always off; the engine supplies the files ambient_context allows.
import { join } from "node:path";

import {
  piAmbientFiles,
  piAppendedPrompt,
  type PiPaths,
  piPromptFile,
} from "../policy/pi-ambient.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

function piPaths(input: RenderInput): PiPaths {
  const home = input.operatorHome ?? input.env.HOME;
  const agentDir =
    input.env.PI_CODING_AGENT_DIR ?? (home === undefined ? undefined : join(home, ".pi", "agent"));
  return { root: input.root, cwd: input.cwd, agentDir };
}

/**
 * pi: `pi -p --no-context-files --append-system-prompt <text>`, the prompt on stdin. The text is
 * the APPEND_SYSTEM.md and the context files the value allows, resolved by the engine.
 */
export function renderPi(input: RenderInput): Rendered {
  const value = input.ambient.value;
  const paths = piPaths(input);
  const append = piPromptFile("APPEND_SYSTEM.md", value, paths).allowed;
  const system = piPromptFile("SYSTEM.md", value, paths);
  const files = [...(append === undefined ? [] : [append]), ...piAmbientFiles(value, paths)];
  // Given at all, --append-system-prompt replaces pi's own APPEND_SYSTEM.md lookup (its resource
  // loader; record 0012), so it is always given, empty when the value allows nothing.
  const args = ["-p", "--no-context-files", "--append-system-prompt", piAppendedPrompt(files)];
  // --system-prompt replaces pi's SYSTEM.md lookup ("" keeps pi's default prompt); needed only
  // where pi would pick a SYSTEM.md the value excludes.
  if (system.native !== system.allowed) args.push("--system-prompt", system.allowed ?? "");
  if (input.node.model !== undefined) args.push("--model", input.node.model);
  if (input.node.effort !== undefined) args.push("--thinking", input.node.effort);
  // Given as an argument, a prompt starting with `-` is an option and one starting with `@` a
  // file, even after `--`; on stdin (with no positional) pi reads it verbatim.
  return {
    file: "pi",
    args,
    env: {},
    stdin: input.prompt,
    diagnostics: notRendered(input, [...TOOL_FIELDS, "filesystem"]),
  };
}

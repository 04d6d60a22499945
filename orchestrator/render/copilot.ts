// GitHub Copilot CLI argv: `copilot --model <m>`, the prompt on stdin (a `-p` value starting with
// `-` is an error on 1.0.102 and read as a flag's value differently on 1.0.60), and its one switch
// for ambient_context: `--no-custom-instructions`, which keeps every instruction file out.
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import type { HomeOverlay } from "../plan/launch-types.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

/**
 * `workspace`: a per-run COPILOT_HOME mirroring the operator's without its instruction files
 * (copilot-instructions.md, instructions/); the workspace's own files load as usual.
 */
function copilotWorkspaceOverlay(input: RenderInput): HomeOverlay {
  const own = input.env.COPILOT_HOME;
  const home = input.operatorHome || input.env.HOME;
  if (!own && (home === undefined || home === ""))
    throw new RefusalError(
      "operator-home-unknown",
      `node ${input.node.id}: ambient_context workspace needs the operator's home for GitHub Copilot CLI, and neither COPILOT_HOME nor HOME is known`,
    );
  return {
    variable: "COPILOT_HOME",
    source: own || join(home ?? "", ".copilot"),
    exclude: ["copilot-instructions.md", "instructions"],
  };
}

/**
 * GitHub Copilot CLI: `copilot [--model m] [--yolo] [--no-custom-instructions]`, the prompt on
 * stdin; `--yolo` only under a full-access decision (otherwise its headless default asks, and with
 * no user to ask, denies every shell call and write: record 0033).
 */
export function renderCopilot(input: RenderInput): Rendered {
  const args: string[] = [];
  if (input.node.model !== undefined) args.push("--model", input.node.model);
  if (input.access.mode === "full-access") args.push("--yolo");
  const diagnostics = notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]);
  if (input.ambient.value === "none") {
    args.push("--no-custom-instructions");
    diagnostics.push({
      severity: "info",
      code: "copilot-no-custom-instructions",
      nodeId: input.node.id,
      message:
        "ambient_context none runs GitHub Copilot CLI with --no-custom-instructions; skill descriptions (.github/skills, ~/.copilot/skills) still reach the model",
    });
  }
  const rendered: Rendered = { file: "copilot", args, env: {}, stdin: input.prompt, diagnostics };
  if (input.ambient.value === "workspace") rendered.homeOverlay = copilotWorkspaceOverlay(input);
  return rendered;
}

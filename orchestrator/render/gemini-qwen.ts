// Gemini CLI and Qwen Code argv: `-m <model>` (the prompt on stdin), and each one's ambient_context
// mechanism (docs/background.md#ac-translate).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import type { HomeOverlay } from "../plan/launch-types.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

function common(input: RenderInput): Rendered["diagnostics"] {
  return notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]);
}

// The prompt goes on stdin (both run headless when stdin is not a terminal): the value of `-p`
// could itself start with `-`, and Qwen Code swallows a positional after an array option.
function modelArgs(input: RenderInput, before: readonly string[] = []): string[] {
  const args: string[] = [];
  if (input.node.model !== undefined) args.push("-m", input.node.model);
  return [...args, ...before];
}

/** The names Gemini CLI reads in `~/.gemini`: GEMINI.md plus any `context.fileName` adds. */
export function geminiContextNames(geminiDir: string): string[] {
  let fileName: unknown;
  try {
    const settings = JSON.parse(readFileSync(join(geminiDir, "settings.json"), "utf8")) as {
      context?: { fileName?: unknown };
    };
    fileName = settings.context?.fileName;
  } catch {
    // no readable settings: only the default name
  }
  const extra = (Array.isArray(fileName) ? fileName : [fileName]).filter(
    (n): n is string => typeof n === "string" && n !== "" && !n.includes("/"),
  );
  return [...new Set(["GEMINI.md", ...extra])];
}

/**
 * Gemini CLI's `workspace`: a per-run GEMINI_CLI_HOME whose `.gemini` mirrors the operator's
 * without its context files and without `tmp` (where the user's project memory lives). The
 * workspace's own GEMINI.md loads from the cwd up to the git root, never above it.
 */
function geminiWorkspaceOverlay(input: RenderInput): HomeOverlay {
  const home = input.env.GEMINI_CLI_HOME || input.operatorHome || input.env.HOME;
  if (home === undefined || home === "")
    throw new RefusalError(
      "operator-home-unknown",
      `node ${input.node.id}: ambient_context workspace needs the operator's home for Gemini CLI, and neither GEMINI_CLI_HOME nor HOME is known`,
    );
  const source = join(home, ".gemini");
  return {
    variable: "GEMINI_CLI_HOME",
    source,
    mirrorInto: ".gemini",
    exclude: [...geminiContextNames(source), "tmp"],
  };
}

/** Gemini CLI: `gemini -m <model>`, the prompt on stdin, with the home overlay under `workspace`. */
export function renderGemini(input: RenderInput): Rendered {
  const rendered: Rendered = {
    file: "gemini",
    args: modelArgs(input),
    env: {},
    stdin: input.prompt,
    diagnostics: common(input),
  };
  if (input.ambient.value === "workspace") rendered.homeOverlay = geminiWorkspaceOverlay(input);
  return rendered;
}

/**
 * Qwen Code: `qwen -m <model>`, the prompt on stdin; `none` adds `--safe-mode`, its only switch that
 * keeps every context file out (QWEN.local.md and rules survive any context.fileName).
 */
export function renderQwen(input: RenderInput): Rendered {
  const none = input.ambient.value === "none";
  const diagnostics = common(input);
  if (none)
    diagnostics.push({
      severity: "info",
      code: "qwen-safe-mode",
      nodeId: input.node.id,
      message:
        "ambient_context none runs Qwen Code with --safe-mode, which also turns off its hooks, extensions, skills and MCP servers",
    });
  return {
    file: "qwen",
    args: modelArgs(input, none ? ["--safe-mode"] : []),
    env: {},
    stdin: input.prompt,
    diagnostics,
  };
}

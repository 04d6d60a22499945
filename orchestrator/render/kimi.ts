// Kimi Code argv and environment: `kimi [-m <alias>] -p <prompt>` (it reads no prompt from stdin;
// a `-`-leading prompt is fine as -p's value). ambient_context: its home moved to a per-run
// KIMI_CODE_HOME without AGENTS.md for workspace; none and operator are refused by the support
// table (no switch skips its repository walk while keeping its own system prompt).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import type { HomeOverlay } from "../plan/launch-types.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

/**
 * What Kimi reads from HOME whatever KIMI_CODE_HOME says (2.1.0: loadAgentsMdForRoots reads
 * ~/.agents/AGENTS.md, else agents.md; userRoots reads ~/.agents/skills).
 */
const AGENTS_HOME = [".agents/AGENTS.md", ".agents/agents.md", ".agents/skills"];
/**
 * What the per-run KIMI_CODE_HOME leaves out of the operator's: AGENTS.md, skills, and SYSTEM.md,
 * whose body replaces Kimi's whole system prompt (2.1.0: loadSystemMdProfile under the home).
 */
const HOME_EXCLUDED = ["AGENTS.md", "skills", "SYSTEM.md"];

/** A file, or a directory with something in it (an empty skills directory lists no skill). */
function holdsSomething(path: string): boolean {
  if (!existsSync(path)) return false;
  return !statSync(path).isDirectory() || readdirSync(path).length > 0;
}

function operatorHome(input: RenderInput): string {
  const home = input.operatorHome ?? input.env.HOME;
  if (home === undefined || home === "")
    throw new RefusalError(
      "operator-home-unknown",
      `node ${input.node.id}: ambient_context workspace needs the operator's home for Kimi Code, and HOME is not known`,
    );
  return home;
}

/** `workspace`: a per-run KIMI_CODE_HOME mirroring the operator's without its instruction files. */
function workspaceOverlay(input: RenderInput): HomeOverlay {
  const home = operatorHome(input);
  const past = AGENTS_HOME.map((p) => join(home, p)).filter(holdsSomething);
  if (past.length > 0)
    throw new RefusalError(
      "ambient-context-refused",
      `node ${input.node.id}: ambient_context workspace on Kimi Code cannot keep ${past.join(", ")} out: Kimi reads it from HOME whatever KIMI_CODE_HOME says`,
    );
  const own = input.env.KIMI_CODE_HOME;
  return {
    variable: "KIMI_CODE_HOME",
    source: own !== undefined && own !== "" ? own : join(home, ".kimi-code"),
    exclude: [...HOME_EXCLUDED],
  };
}

/**
 * Kimi Code: `kimi [-m alias] -p <prompt>`. -p forces its auto permission mode (every tool call
 * runs unasked, 0.20.0 and 2.1.0), which the plan says as a warning: no flag narrows it.
 */
export function renderKimi(input: RenderInput): Rendered {
  const args: string[] = [];
  if (input.node.model !== undefined) args.push("-m", input.node.model);
  args.push("-p", input.prompt);
  const diagnostics = notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]);
  diagnostics.push({
    severity: "warning",
    code: "kimi-prompt-mode-auto",
    nodeId: input.node.id,
    message:
      "Kimi Code's -p runs in its auto permission mode: every shell call and write runs without asking, and 2.1.0 ignores permission rules in config.toml",
  });
  const rendered: Rendered = { file: "kimi", args, env: {}, diagnostics };
  if (input.ambient.value === "workspace") rendered.homeOverlay = workspaceOverlay(input);
  return rendered;
}

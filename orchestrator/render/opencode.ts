// opencode argv and environment: `opencode run -m <model>`, the prompt on stdin, and ambient_context
// as Codex renders it: one switch per origin (docs/background.md#ac-translate).
import { existsSync } from "node:fs";
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import type { HomeOverlay } from "../plan/launch-types.js";
import { ambientCuts, OPENCODE_GLOBAL_INSTRUCTIONS } from "../policy/ambient-context.js";
import { pathFromRoot } from "../policy/git-root.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

/** The repository configuration OPENCODE_DISABLE_PROJECT_CONFIG drops with the instruction files. */
const PROJECT_CONFIG = ["opencode.json", "opencode.jsonc", ".opencode"];

function configDirSource(input: RenderInput): string {
  const fromEnv = input.env.OPENCODE_CONFIG_DIR;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const xdg = input.env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== "") return join(xdg, "opencode");
  const home = input.operatorHome ?? input.env.HOME;
  if (home === undefined || home === "")
    throw new RefusalError(
      "operator-home-unknown",
      `node ${input.node.id}: ambient_context ${input.ambient.value} needs the operator's opencode config directory, and none of OPENCODE_CONFIG_DIR, XDG_CONFIG_HOME and HOME is known`,
    );
  return join(home, ".config", "opencode");
}

/**
 * The per-run OPENCODE_CONFIG_DIR: the operator's config directory by symlink, its AGENTS.md an
 * empty file. opencode takes the first existing of that AGENTS.md and `~/.claude/CLAUDE.md` and
 * skips an empty one, so neither loads, while the workspace's CLAUDE.md fallback (which
 * OPENCODE_DISABLE_CLAUDE_CODE_PROMPT would also drop) is kept.
 */
function configDirOverlay(input: RenderInput): HomeOverlay {
  return {
    variable: "OPENCODE_CONFIG_DIR",
    source: configDirSource(input),
    exclude: [OPENCODE_GLOBAL_INSTRUCTIONS],
    empty: [OPENCODE_GLOBAL_INSTRUCTIONS],
  };
}

function projectConfigDropped(input: RenderInput): Diagnostic[] {
  const found = pathFromRoot(input.root, input.cwd).flatMap((dir) =>
    PROJECT_CONFIG.map((name) => join(dir, name)).filter((path) => existsSync(path)),
  );
  if (found.length === 0) return [];
  return [
    {
      severity: "warning",
      code: "ambient-context-project-config-dropped",
      nodeId: input.node.id,
      message: `ambient_context ${input.ambient.value} on opencode sets OPENCODE_DISABLE_PROJECT_CONFIG, which also drops the repository's ${found.join(", ")} (settings, permission rules, agents, skills), not only its instruction files`,
    },
  ];
}

/**
 * opencode: `opencode run -m <model>`, the prompt on stdin: as arguments it would wrap words with
 * spaces in quotes, and a word starting with `-` would be an option; stdin arrives verbatim.
 */
export function renderOpencode(input: RenderInput): Rendered {
  const cut = ambientCuts(input.ambient.value);
  const args = ["run"];
  if (input.node.model !== undefined) args.push("-m", input.node.model);
  const diagnostics = notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]);
  const env: Record<string, string> = {};
  if (cut.workspace) {
    env.OPENCODE_DISABLE_PROJECT_CONFIG = "1";
    diagnostics.push(...projectConfigDropped(input));
  }
  const rendered: Rendered = { file: "opencode", args, env, stdin: input.prompt, diagnostics };
  if (cut.operator) rendered.homeOverlay = configDirOverlay(input);
  return rendered;
}

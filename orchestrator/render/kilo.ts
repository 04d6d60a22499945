// Kilo Code argv and environment: `kilo run [-m <model>] [--auto]`, the prompt on stdin, and
// ambient_context as opencode's renderer does it with Kilo's variables (KILO_DISABLE_PROJECT_CONFIG,
// a per-run KILO_CONFIG_DIR), refused where Kilo's own rule files would load past both switches.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import type { HomeOverlay } from "../plan/launch-types.js";
import { ambientCuts } from "../policy/ambient-context.js";
import { pathFromRoot } from "../policy/git-root.js";
import type { Diagnostic } from "../spec/diagnostics.js";
import { notRendered, type Rendered, type RenderInput, TOOL_FIELDS } from "./render-input.js";

/** The repository configuration KILO_DISABLE_PROJECT_CONFIG drops with the instruction files. */
const PROJECT_CONFIG = ["kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc", ".kilo"];
/** The modes whose rule files load in every mode (7.7.7's rules migration includes them all). */
const MODES = ["code", "architect", "ask", "debug", "orchestrator"];
/**
 * The cwd's Kilo Code rules, read whatever KILO_DISABLE_PROJECT_CONFIG says (7.0.33, 7.7.7; a
 * mode's `.kilo/rules-<mode>` too, record 0071), and every mode's rule files `kilo run` loads.
 */
const CWD_RULES = [
  ".kilocoderules",
  ".kilocode/rules",
  ".kilo/rules",
  ...MODES.flatMap((m) => [`.kilo/rules-${m}`, `.kilocode/rules-${m}`, `.kilocoderules-${m}`]),
];
/** HOME's rules, read whatever KILO_CONFIG_DIR says. */
const HOME_RULES = [".kilocode/rules", ".kilo/rules"];

function present(dir: string, names: readonly string[]): string[] {
  return names
    .map((name) => join(dir, name))
    .filter((path) => {
      if (!existsSync(path)) return false;
      try {
        return readdirSync(path).length > 0;
      } catch {
        return true; // a file, not a directory
      }
    });
}

function operatorHome(input: RenderInput): string {
  const home = input.operatorHome ?? input.env.HOME;
  if (home === undefined || home === "")
    throw new RefusalError(
      "operator-home-unknown",
      `node ${input.node.id}: ambient_context ${input.ambient.value} needs the operator's home for Kilo Code, and HOME is not known`,
    );
  return home;
}

/** The per-run KILO_CONFIG_DIR: the operator's kilo directory, its AGENTS.md an empty file. */
function configDirOverlay(input: RenderInput): HomeOverlay {
  const own = input.env.KILO_CONFIG_DIR;
  const xdg = input.env.XDG_CONFIG_HOME;
  const source =
    own !== undefined && own !== ""
      ? own
      : xdg !== undefined && xdg !== ""
        ? join(xdg, "kilo")
        : join(operatorHome(input), ".config", "kilo");
  // An empty AGENTS.md wins the global lookup and is skipped, so ~/.claude/CLAUDE.md stays out too.
  return { variable: "KILO_CONFIG_DIR", source, exclude: ["AGENTS.md"], empty: ["AGENTS.md"] };
}

function refuseIfPresent(input: RenderInput, found: string[], past: string): void {
  if (found.length === 0) return;
  throw new RefusalError(
    "ambient-context-refused",
    `node ${input.node.id}: ambient_context ${input.ambient.value} on Kilo Code cannot keep ${found.join(", ")} out: Kilo reads them whatever ${past} says`,
  );
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
      message: `ambient_context ${input.ambient.value} on Kilo Code sets KILO_DISABLE_PROJECT_CONFIG, which also drops the repository's ${found.join(", ")} (settings, permission rules, agents, skills), not only its instruction files`,
    },
  ];
}

/**
 * Kilo Code: `kilo run [-m m] [--auto]`, the prompt on stdin (a `-`-leading argument is an option
 * to it); `--auto` only under a full-access decision: without it an ask (a path outside the
 * workspace) is auto-rejected.
 */
export function renderKilo(input: RenderInput): Rendered {
  const cut = ambientCuts(input.ambient.value);
  const args = ["run"];
  if (input.node.model !== undefined) args.push("-m", input.node.model);
  if (input.access.mode === "full-access") args.push("--auto");
  const diagnostics = notRendered(input, [...TOOL_FIELDS, "effort", "filesystem"]);
  const env: Record<string, string> = {};
  if (cut.workspace) {
    refuseIfPresent(input, present(input.cwd, CWD_RULES), "KILO_DISABLE_PROJECT_CONFIG");
    env.KILO_DISABLE_PROJECT_CONFIG = "1";
    diagnostics.push(...projectConfigDropped(input));
  }
  const rendered: Rendered = { file: "kilo", args, env, stdin: input.prompt, diagnostics };
  if (cut.operator) {
    refuseIfPresent(input, present(operatorHome(input), HOME_RULES), "KILO_CONFIG_DIR");
    rendered.homeOverlay = configDirOverlay(input);
  }
  return rendered;
}

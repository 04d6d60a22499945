// ambient_context: resolve its value by precedence and translate it per backend (docs/background.md#ambient-context).
import { join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import {
  type AmbientContext,
  ambientContextSchema,
  type NodeSpec,
  type WorkflowSpec,
} from "../spec/schemas.js";
import { ancestorsAbove } from "./git-root.js";

/** The environment variable that sets ambient_context for a whole process. */
export const AMBIENT_ENV = "WITNESS_AMBIENT_CONTEXT";

/** The effective value and where it came from; only the default is not explicit. */
export interface AmbientResolution {
  value: AmbientContext;
  source: "run" | "node" | "workflow" | "environment" | "default";
}

/** Checks a value typed outside a spec file (run override, environment); refuses an unknown one. */
export function checkAmbient(value: string, where: string): AmbientContext {
  const result = ambientContextSchema.safeParse(value);
  if (!result.success)
    throw new RefusalError(
      "ambient-context-invalid",
      `${where}: "${value}" is not an ambient_context value; expected one of none, workspace, operator, all`,
    );
  return result.data;
}

/** Precedence: run override > node > workflow > WITNESS_AMBIENT_CONTEXT > default `workspace`. */
export function resolveAmbient(input: {
  run?: string | undefined;
  node?: NodeSpec;
  workflow?: WorkflowSpec | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
}): AmbientResolution {
  if (input.run !== undefined)
    return { value: checkAmbient(input.run, "run override"), source: "run" };
  if (input.node?.ambientContext !== undefined)
    return { value: input.node.ambientContext, source: "node" };
  const fromWorkflow = input.workflow?.defaults?.ambientContext;
  if (fromWorkflow !== undefined) return { value: fromWorkflow, source: "workflow" };
  const fromEnv = input.env?.[AMBIENT_ENV];
  if (fromEnv !== undefined && fromEnv !== "")
    return { value: checkAmbient(fromEnv, AMBIENT_ENV), source: "environment" };
  return { value: "workspace", source: "default" };
}

/** Claude Code setting sources, in the order the CLI documents them. */
export const CLAUDE_SOURCES = ["user", "project", "local"] as const;
export type ClaudeSource = (typeof CLAUDE_SOURCES)[number];

/** Claude Code's translation: the sources ambient asks for and the CLAUDE.md paths it excludes. */
export interface ClaudeAmbient {
  sources: ClaudeSource[];
  excludes?: string[];
}

/** The Claude Code row of background.md#ac-translate; `root` is the git top level of the node's working directory. */
export function claudeAmbient(value: AmbientContext, root: string): ClaudeAmbient {
  switch (value) {
    case "none":
      return { sources: ["project"], excludes: ["**"] };
    case "workspace":
      // AGENTS.md too: Claude Code reads it in each ancestor where no CLAUDE.md is (record 0031
      // found the parent's reaching the model when only the CLAUDE.md names were excluded).
      return {
        sources: ["project"],
        excludes: ancestorsAbove(root).flatMap((dir) => [
          join(dir, "CLAUDE.md"),
          join(dir, "CLAUDE.local.md"),
          join(dir, "AGENTS.md"),
          join(dir, ".claude", "**"),
        ]),
      };
    case "operator":
      return { sources: ["user", "project"], excludes: [join(root, "**")] };
    case "all":
      return { sources: ["user", "project"] };
  }
}

/** Codex's translation: project docs off, and/or a CODEX_HOME overlay without AGENTS*.md. */
export interface CodexAmbient {
  projectDocsOff: boolean;
  homeWithoutInstructions: boolean;
}

/**
 * Which origins a value keeps out, for a backend with one switch per origin (Codex, opencode):
 * the repository's files under `none` and `operator`, the agent home's under `none` and `workspace`.
 */
export function ambientCuts(value: AmbientContext): { workspace: boolean; operator: boolean } {
  return {
    workspace: value === "none" || value === "operator",
    operator: value === "none" || value === "workspace",
  };
}

/** The Codex row of background.md#ac-translate. */
export function codexAmbient(value: AmbientContext): CodexAmbient {
  const cut = ambientCuts(value);
  return { projectDocsOff: cut.workspace, homeWithoutInstructions: cut.operator };
}

/** The instruction files a Codex home overlay leaves out. */
export const CODEX_INSTRUCTION_FILES = ["AGENTS.md", "AGENTS.override.md"];

/** The global instruction file opencode reads from its config directory (else `~/.claude/CLAUDE.md`). */
export const OPENCODE_GLOBAL_INSTRUCTIONS = "AGENTS.md";

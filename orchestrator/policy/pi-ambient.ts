// pi's ambient_context translation: the files the engine resolves in place of pi's own walk, and
// which SYSTEM.md / APPEND_SYSTEM.md a value lets through (docs/background.md#ac-translate).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import type { AmbientContext } from "../spec/schemas.js";
import { ancestorsAbove, pathFromRoot } from "./git-root.js";

/** pi's per-directory candidates, first existing one wins. */
export const PI_CANDIDATES = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

/** Where the engine looks: the git root, the working directory and pi's agent directory. */
export interface PiPaths {
  root: string;
  cwd: string;
  agentDir: string | undefined;
}

function firstCandidate(dir: string): string[] {
  const found = PI_CANDIDATES.map((name) => join(dir, name)).find((path) => existsSync(path));
  return found === undefined ? [] : [found];
}

function allows(value: AmbientContext): { workspace: boolean; operator: boolean } {
  return {
    workspace: value === "workspace" || value === "all",
    operator: value === "operator" || value === "all",
  };
}

/**
 * The files the engine resolves for pi, most general first: pi's agent directory, the ancestors
 * above the root, then the workspace from the root down to the working directory.
 */
export function piAmbientFiles(value: AmbientContext, paths: PiPaths): string[] {
  const { workspace, operator } = allows(value);
  const agentFile = paths.agentDir === undefined ? [] : [join(paths.agentDir, "AGENTS.md")];
  return [
    ...(operator ? agentFile.filter((path) => existsSync(path)) : []),
    ...(operator ? [...ancestorsAbove(paths.root)].reverse().flatMap(firstCandidate) : []),
    ...(workspace ? pathFromRoot(paths.root, paths.cwd).flatMap(firstCandidate) : []),
  ];
}

/** One of pi's prompt files: the one pi would read by itself, and the one the value allows. */
export interface PiPromptFile {
  native: string | undefined;
  allowed: string | undefined;
}

/**
 * pi 0.73.1 reads `<cwd>/.pi/<name>`, else `<agent dir>/<name>` (its resource loader); the
 * workspace's copy is workspace origin, the agent directory's operator origin.
 */
export function piPromptFile(
  name: "SYSTEM.md" | "APPEND_SYSTEM.md",
  value: AmbientContext,
  paths: PiPaths,
): PiPromptFile {
  const { workspace, operator } = allows(value);
  const candidates = [
    { path: join(paths.cwd, ".pi", name), allowed: workspace },
    ...(paths.agentDir === undefined
      ? []
      : [{ path: join(paths.agentDir, name), allowed: operator }]),
  ].filter((candidate) => existsSync(candidate.path));
  return {
    native: candidates[0]?.path,
    allowed: candidates.find((candidate) => candidate.allowed)?.path,
  };
}

/** The text appended to pi's system prompt: each file under a heading naming its path. */
export function piAppendedPrompt(files: readonly string[]): string {
  return files.map((path) => `# ${path}\n\n${readFileSync(path, "utf8").trimEnd()}\n`).join("\n");
}

// pi's ambient_context translation: the files the engine resolves in place of pi's own walk, and
// which SYSTEM.md / APPEND_SYSTEM.md a value lets through (docs/background.md#ac-translate).
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { InputError } from "../../core/errors.js";
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

/**
 * The most bytes of text pi is handed with `--append-system-prompt`: one argument, which Linux
 * caps at 128 KiB (MAX_ARG_STRLEN); a bigger one would fail the launch with E2BIG.
 */
export const MAX_PI_APPENDED_BYTES = 120 * 1024;

// One file the value lets through: a regular file (a FIFO would block, a device never end), read
// only while the whole prompt stays within its bound, both checked before the content is read.
function readBounded(path: string, room: number): string {
  const refuse = (got: string) =>
    new InputError(path, [
      {
        path: "",
        message: `expected a regular file of at most ${room} bytes (pi's ambient context, appended to its system prompt within ${MAX_PI_APPENDED_BYTES}); got ${got}`,
      },
    ]);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw refuse(`an unreadable file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw refuse("something else than a regular file");
    if (stat.size > room) throw refuse(`${stat.size} bytes`);
    const text = readFileSync(fd, "utf8");
    if (Buffer.byteLength(text) > room) throw refuse("more (it grew)");
    return text;
  } finally {
    closeSync(fd);
  }
}

/** The text appended to pi's system prompt: each file under a heading naming its path, bounded. */
export function piAppendedPrompt(files: readonly string[]): string {
  let out = "";
  for (const path of files) {
    const head = `${out === "" ? "" : "\n"}# ${path}\n\n`;
    const room = MAX_PI_APPENDED_BYTES - Buffer.byteLength(out + head) - 1;
    out += `${head}${readBounded(path, Math.max(0, room)).trimEnd()}\n`;
  }
  return out;
}

// Test helpers: a throwaway workspace (a directory holding .git, no git process) and HOME in one root.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { afterAll } from "vitest";

// Registered once per test file that imports this module: every root it made goes at the end.
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp root holding `repo/` (with `.git/`) and `home/`; paths are real paths. */
export interface TempWorkspace {
  base: string;
  root: string;
  home: string;
  /** Writes a file relative to `base`, creating its directories. */
  write(relative: string, text: string): string;
}

/** Creates a fresh temp repository layout. */
export function tempWorkspace(): TempWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "witness-orch-")));
  made.push(base);
  const root = join(base, "repo");
  const home = join(base, "home");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return {
    base,
    root,
    home,
    write(relative, text) {
      const path = join(base, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
  };
}

/** The Claude Code excludes of `workspace` for a root: every ancestor's four entries, nearest first. */
export function ancestorExcludes(root: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    out.push(
      join(dir, "CLAUDE.md"),
      join(dir, "CLAUDE.local.md"),
      join(dir, "AGENTS.md"),
      join(dir, ".claude", "**"),
    );
    if (dirname(dir) === dir) break;
  }
  return out;
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const SEAM = "core/exec.ts";
// Programs witness copies into a probe cell and never loads itself: the cell shim starts the
// pinned CLI inside the orchestrator's containment, as shims/assets/shim.sh does with exec.
const CELL_PROGRAMS = new Set(["probes/orchestrated/assets/cell-shim.mjs"]);
const SKIP = new Set(["node_modules", "dist", ".git", "fixtures"]);
const SPAWNING_IMPORT =
  /(from\s+|import\s*\(\s*|require\s*\(\s*)["'](execa|(node:)?child_process)["']/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

describe("the one exec seam", () => {
  it("is the only source file that imports execa or child_process", () => {
    const offenders = sourceFiles(ROOT)
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== SEAM && path !== "core/exec-seam.test.ts")
      .filter((path) => !CELL_PROGRAMS.has(path))
      .filter((path) => SPAWNING_IMPORT.test(readFileSync(join(ROOT, path), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("detects an import when one is present", () => {
    expect(SPAWNING_IMPORT.test(`import { spawn } from "node:child_process";`)).toBe(true);
    expect(SPAWNING_IMPORT.test(`const { execa } = await import("execa");`)).toBe(true);
    expect(SPAWNING_IMPORT.test(`import { readFile } from "node:fs";`)).toBe(false);
  });
});

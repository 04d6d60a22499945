// The layering rule as data: each top-level folder's README says what its code may import.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** What one folder's README allows: `null` for "every folder". */
export interface FolderRule {
  folder: string;
  /** Folders (or subfolders such as `probes/contracts`) its code may import; null: any. */
  code: string[] | null;
  /** Extra folders its tests may import. */
  tests: string[];
}

/** One import that crosses a folder boundary its README does not allow. */
export interface Violation {
  file: string;
  target: string;
  allowed: string[];
}

const LIST = /`([a-z0-9-]+(?:\/[a-z0-9-]+)*)\/`/g;

function listed(line: string | undefined): string[] {
  return line === undefined ? [] : [...line.matchAll(LIST)].map((m) => m[1] ?? "");
}

/**
 * Reads the rule from a README: a line `May import: \`core/\`, \`probes/contracts/\`.` (or
 * `nothing`, or `every folder`), and optionally `Tests may also import: \`probes/\`.`.
 * Null when the README has no `May import:` line.
 */
export function parseRule(folder: string, readme: string): FolderRule | null {
  const lines = readme.split("\n");
  const may = lines.find((l) => /^May import:/.test(l));
  if (may === undefined) return null;
  const tests = listed(lines.find((l) => /^Tests may also import:/.test(l)));
  const code = /^May import: every (other )?folder/.test(may) ? null : listed(may);
  return { folder, code, tests };
}

/** The repository-relative targets of every relative import in a TypeScript source. */
export function importTargets(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(
    /(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)"(\.{1,2}\/[^"]+)"/gm,
  )) {
    out.push(normalize(join(dirname(file), m[1] ?? "")));
  }
  return out;
}

function allowedBy(target: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => target === a || target.startsWith(`${a}/`));
}

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : tsFiles(root, rel);
    return entry.name.endsWith(".ts") ? [rel] : [];
  });
}

const IGNORED = new Set(["node_modules", "dist", "docs", ".git"]);

/** Every top-level folder with code, and the rule its README states (null: no rule found). */
export function folderRules(root: string): Map<string, FolderRule | null> {
  const rules = new Map<string, FolderRule | null>();
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || IGNORED.has(entry.name) || entry.name.startsWith(".")) continue;
    if (tsFiles(root, entry.name).length === 0) continue;
    const readme = join(root, entry.name, "README.md");
    rules.set(
      entry.name,
      existsSync(readme) ? parseRule(entry.name, readFileSync(readme, "utf8")) : null,
    );
  }
  return rules;
}

/** Every import in `root` that its folder's README does not allow. */
export function layerViolations(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const [folder, rule] of folderRules(root)) {
    if (rule === null) throw new Error(`${folder}/README.md has no "May import:" line`);
    for (const file of tsFiles(root, folder)) {
      const test = /\.test\.ts$/.test(file);
      const own = [folder, ...(test ? ["test/support", ...rule.tests] : [])];
      const allowed = rule.code === null ? null : [...own, ...rule.code];
      const source = readFileSync(join(root, file), "utf8");
      for (const target of importTargets(file, source)) {
        if (allowed === null || allowedBy(target, allowed)) continue;
        violations.push({ file, target, allowed });
      }
    }
  }
  return violations;
}

// `import type` and `export type` vanish from the emitted JavaScript; every other import runs
// (under verbatimModuleSyntax even `import { type A }` stays, as `import {}`).
const STATIC = /^(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gm;
const BARE = /^import\s+"(\.{1,2}\/[^"]+)"/gm;
const DYNAMIC = /\bimport\s*\(\s*"(\.{1,2}\/[^"]+)"/g;

/** The repository-relative `.ts` files a source's imports load at run time, static or dynamic. */
export function runtimeImportTargets(file: string, source: string): string[] {
  const specs = [
    ...[...source.matchAll(STATIC)].filter((m) => m[1] === undefined).map((m) => m[2]),
    ...[...source.matchAll(BARE)].map((m) => m[1]),
    ...[...source.matchAll(DYNAMIC)].map((m) => m[1]),
  ];
  return specs.map((s) => normalize(join(dirname(file), s ?? "")).replace(/\.js$/, ".ts"));
}

/** Every TypeScript file of the repository outside node_modules, dist, docs and fixtures. */
export function repositoryTsFiles(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    if (IGNORED.has(entry.name) || entry.name.startsWith(".")) return [];
    if (entry.isDirectory()) return tsFiles(root, entry.name);
    return entry.name.endsWith(".ts") ? [entry.name] : [];
  });
}

/**
 * The runtime import cycles among `files` (repository-relative): each strongly connected group of
 * two or more files, or a file importing itself, sorted; empty when the graph has none.
 */
export function importCycles(root: string, files = repositoryTsFiles(root)): string[][] {
  const graph = new Map(
    files.map((f) => [f, runtimeImportTargets(f, readFileSync(join(root, f), "utf8"))]),
  );
  // Tarjan's algorithm: one pass, each group found when its first-visited file closes.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

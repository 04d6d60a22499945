// What a folder's README says its files are, against the files it holds.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** A README out of step with its folder. */
export interface ReadmeGaps {
  /** Source files (not tests) the README never names, relative to the folder. */
  unnamed: string[];
  /** Files the README names that exist nowhere it could mean. */
  missing: string[];
}

// A file name in backticks; in `<cli>/facts.ts` a `<word>` stands for one path segment.
const NAMED = /`([^`\s*]+\.(?:ts|mjs|sh|awk))`/g;

// A name as a test of a path: `<word>` matches one segment, the rest is literal.
function matcher(name: string): (path: string) => boolean {
  const source = name
    .split(/(<[^<>/]+>)/)
    .map((part, i) => (i % 2 === 1 ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  const whole = new RegExp(`^${source}$`);
  const tail = new RegExp(`/${source}$`);
  return (path) => whole.test(path) || tail.test(path);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : filesUnder(path);
    return [path];
  });
}

/** The source files of `folder` a README must name: every `.ts` file that is not a test. */
export function sourceFiles(root: string, folder: string): string[] {
  return filesUnder(join(root, folder))
    .map((file) => relative(join(root, folder), file))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts"))
    .sort();
}

/**
 * Compares `folder/README.md` with the folder. A file counts as named by its path in the folder
 * (`commands/run.ts`, `commands/<name>.ts`) or by the end of it (`run.ts`), as the tables write a
 * subfolder's files beside the subfolder. A name resolves when it names one of the folder's files
 * that way, or is a path from the repository's root (a cross-reference); `dist/` is the build's,
 * not checked.
 */
export function readmeGaps(root: string, folder: string): ReadmeGaps {
  const readme = readFileSync(join(root, folder, "README.md"), "utf8");
  // A pattern with nothing literal but its extension (`<name>.ts`) names no file in particular.
  const names = [...new Set([...readme.matchAll(NAMED)].map((m) => m[1] ?? ""))].filter((n) =>
    /[a-z]/i.test(n.replace(/<[^<>/]+>/g, "").replace(/\.[a-z]+$/, "")),
  );
  const files = filesUnder(join(root, folder)).map((f) => relative(join(root, folder), f));
  // `bench/run.ts` in bench/README.md is its own `run.ts`.
  const tests = names.map((n) =>
    matcher(n.startsWith(`${folder}/`) ? n.slice(folder.length + 1) : n),
  );
  const unnamed = sourceFiles(root, folder).filter((f) => !tests.some((test) => test(f)));
  const missing = names
    .filter((name, i) => !name.startsWith("dist/") && !files.some((f) => tests[i]?.(f)))
    .filter((name) => name.includes("<") || !existsSync(join(root, name)))
    .sort();
  return { unnamed, missing };
}

/** The top-level folders that hold TypeScript and a README (node_modules, dist and docs aside). */
export function documentedFolders(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !SKIP.has(e.name))
    .map((e) => e.name)
    .filter((name) => sourceFiles(root, name).length > 0)
    .sort();
}

const SKIP = new Set(["node_modules", "dist", "docs"]);

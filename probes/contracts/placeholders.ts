// `{{path:<root>}}`: an absolute path of the cell (or of witness's own built files), written into
// argv, environment values, planted file contents and scripts before the CLI starts.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The roots a `{{path:<root>}}` placeholder may name. */
export const PATH_ROOTS = [
  /** the cell's temporary root (extra directories: files `at: cell`, e.g. `staged/...`) */
  "cell",
  /** the git workspace the CLI runs in (a worktree, in the nested layout) */
  "workspace",
  /** the cell's HOME */
  "home",
  /** the directory above the workspace's git root (the primary checkout, in the nested layout) */
  "parent",
  /** two levels above the workspace's git root */
  "grandparent",
  /** the primary checkout: the workspace itself, or the checkout a nested worktree belongs to */
  "primary",
  /** the cell's TMPDIR */
  "tmp",
  /** witness's own built CLI, `dist/cli/main.js`, to run with node inside the cell */
  "witness-cli",
] as const;
export type PathRoot = (typeof PATH_ROOTS)[number];

const PATH_RE = /\{\{path:([^}]*)\}\}/g;

/** The built CLI beside this module: dist/probes/contracts → dist/cli/main.js (src works too). */
export const WITNESS_CLI = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  ...(import.meta.url.includes("/dist/") ? [] : ["dist"]),
  "cli",
  "main.js",
);

/** Every `{{path:…}}` naming a root witness does not know, with where it is (`turns.0.calls.0.shell`). */
export function unknownPathRoots(
  value: unknown,
  at: (string | number)[] = [],
): { path: (string | number)[]; root: string }[] {
  if (typeof value === "string")
    return (
      [...value.matchAll(PATH_RE)]
        .map((m) => m[1] ?? "")
        // `cli:<name>` is an orchestrator launch's shim, checked against the CLIs the launch lists.
        .filter(
          (root) => !(PATH_ROOTS as readonly string[]).includes(root) && !root.startsWith("cli:"),
        )
        .map((root) => ({ path: at, root }))
    );
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPathRoots(v, [...at, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => unknownPathRoots(v, [...at, k]));
  return [];
}

/** The message for a placeholder naming an unknown root. */
export function unknownRootMessage(root: string): string {
  return `expected {{path:<root>}} with a root of ${PATH_ROOTS.join(", ")}; got "${root}"`;
}

/** Replaces every `{{path:<root>}}` in `text` (roots already validated). */
export function resolvePaths(text: string, roots: Readonly<Record<PathRoot, string>>): string {
  return text.replace(PATH_RE, (whole, root: string) =>
    root in roots ? roots[root as PathRoot] : whole,
  );
}

/** Applies `resolvePaths` to every string inside a JSON-like value. */
export function resolvePathsDeep<T>(value: T, roots: Readonly<Record<PathRoot, string>>): T {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === "string" ? resolvePaths(v, roots) : v)),
  ) as T;
}

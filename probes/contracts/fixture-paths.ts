// What a fixture file's path may be, and where each root of the cell lies: one source for the
// schema that refuses a path and for the cell that plants it.
import { posix } from "node:path";

/** The roots a fixture file is planted under (the schema's `at`). */
export type FixtureRootName = "workspace" | "home" | "parent" | "grandparent" | "cell" | "primary";

/** Where a fixture's roots and the cell's own directories lie, relative to the cell root. */
export interface CellLayout {
  workspace: string;
  home: string;
  parent: string;
  grandparent: string;
  /** The cell's root itself (the empty relative path). */
  cell: string;
  /** The primary checkout: the workspace, or (nested) the checkout the worktree belongs to. */
  primary: string;
  /** Directories the cell makes itself: a fixture file may lie below them, never on them. */
  made: readonly string[];
}

/** Directories the cell makes in HOME for every spawn (XDG and CODEX_HOME). */
export const HOME_DIRS: readonly string[] = [
  ".config",
  ".cache",
  ".local/share",
  ".local/state",
  ".codex",
];

/**
 * The cell's layout for a workspace placement (`outside-home`, `under-home`, `nested-worktree`);
 * a nested worktree lies at `worktree` inside the primary checkout (`parent`), `ws` by default.
 */
export function cellLayout(
  workspace: "outside-home" | "under-home" | "nested-worktree",
  worktree = "ws",
): CellLayout {
  // outside-home and nested-worktree share the ancestors; the worktree's parent is a primary checkout.
  const grandparent = workspace === "under-home" ? "home/projects" : "outside/grand";
  const parent = `${grandparent}/parent`;
  const ws = `${parent}/${workspace === "nested-worktree" ? worktree : "ws"}`;
  return {
    workspace: ws,
    home: "home",
    parent,
    grandparent,
    cell: "",
    primary: workspace === "nested-worktree" ? parent : ws,
    made: [...HOME_DIRS.map((d) => `home/${d}`), ws],
  };
}

/** The cell-relative path of a file planted at `root` (the cell root has no prefix). */
export function underRoot(layout: CellLayout, root: FixtureRootName, path: string): string {
  return layout[root] === "" ? path : `${layout[root]}/${path}`;
}

/** The deepest root whose directory holds the cell-relative `path` (a root lies inside another). */
export function innermostRoot(layout: CellLayout, path: string): FixtureRootName {
  const roots: FixtureRootName[] = ["workspace", "parent", "grandparent", "home"];
  const sorted = roots.sort((a, b) => layout[b].length - layout[a].length);
  return sorted.find((r) => path.startsWith(`${layout[r]}/`)) ?? "cell";
}

/**
 * Names at the cell root the cell and the probe make themselves (its directories, its git config,
 * the owner file `witness clean` reads, the requests and output a kept cell holds, a driver's
 * settings): a file `at: cell` lies inside a directory of its own, never on or in one of these.
 */
export const CELL_OWN_NAMES: readonly string[] = [
  "home",
  "outside",
  "tmp",
  "sentinels",
  "overlay",
  "gitconfig",
  "witness-owner.json",
  "requests.json",
  "output.json",
  "gemini-system-settings.json",
];

/** Why a file `at: cell` cannot be planted at `path`, or null: a control name is the cell's. */
export function cellFileProblem(path: string): string | null {
  const [top = "", ...rest] = path.split("/");
  if (CELL_OWN_NAMES.includes(top.normalize("NFC").toLowerCase()))
    return `expected a path outside the cell's own names (${CELL_OWN_NAMES.join(", ")}); use their own roots`;
  if (rest.length === 0)
    return "expected a path inside a directory of its own (e.g. staged/x): a file at the cell's root could be one the cell itself uses";
  return null;
}

/** The longest fixture path, in bytes: far below PATH_MAX once the cell's own prefix is added. */
export const MAX_FIXTURE_PATH_BYTES = 1024;
/** The longest name of one path segment, in bytes (NAME_MAX on Linux and macOS). */
export const MAX_FIXTURE_NAME_BYTES = 255;

// `.git` in any case, and the spellings Windows and macOS file systems fold into it.
function isGitName(segment: string): boolean {
  const folded = segment
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[. ]+$/, "");
  return folded === ".git" || /^git~\d+$/.test(folded);
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/**
 * Why `path` cannot be a fixture file's path, or null when it can: a relative path of plain
 * segments (no empty, `.` or `..` segment, no trailing slash), no NUL or other control
 * character, no `.git` segment in any case (git would read it as repository metadata: a
 * config with a filter, a hook, a `.git` file pointing at another repository), within the
 * length bounds.
 */
export function fixturePathProblem(path: string): string | null {
  if (path === "") return "expected a relative file path; got an empty string";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) {
    return "expected a path without NUL or control characters";
  }
  if (bytes(path) > MAX_FIXTURE_PATH_BYTES) {
    return `expected a path of at most ${MAX_FIXTURE_PATH_BYTES} bytes; got ${bytes(path)}`;
  }
  if (path.startsWith("/")) return "expected a relative path; got an absolute one";
  if (path.includes("\\")) return "expected '/' as the separator; got a backslash";
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return "expected a file path without empty segments or a trailing '/'";
    if (segment === "." || segment === "..") {
      return `expected a path without '.' or '..' segments; got "${path}"`;
    }
    if (bytes(segment) > MAX_FIXTURE_NAME_BYTES) {
      return `expected names of at most ${MAX_FIXTURE_NAME_BYTES} bytes; got one of ${bytes(segment)}`;
    }
    if (isGitName(segment)) {
      return "expected a path without a .git segment (git metadata is the cell's own, never planted)";
    }
  }
  return null;
}

/** One planted file's place in the cell, for the clash check. */
export interface PlacedPath {
  /** Cell-relative path of the file. */
  path: string;
  /** How a person names it: `files.3.path`. */
  index: number;
}

/**
 * Pairs of fixture files (or a file and a directory the cell makes) that cannot both exist:
 * the same path twice, or a file where another file needs a directory.
 */
export function pathClashes(
  placed: readonly PlacedPath[],
  made: readonly string[],
): { index: number; message: string }[] {
  const problems: { index: number; message: string }[] = [];
  const seen = new Map<string, number>();
  const dirs = new Map<string, number | "cell">();
  const addDirs = (path: string, owner: number | "cell", self: boolean) => {
    let dir = self ? path : posix.dirname(path);
    while (dir !== "." && dir !== "") {
      if (!dirs.has(dir)) dirs.set(dir, owner);
      dir = posix.dirname(dir);
    }
  };
  for (const dir of made) addDirs(dir, "cell", true);
  for (const { path, index } of placed) addDirs(path, index, false);
  for (const { path, index } of placed) {
    const twin = seen.get(path);
    if (twin !== undefined) {
      problems.push({ index, message: `expected each file once; files.${twin} plants it too` });
      continue;
    }
    seen.set(path, index);
    const owner = dirs.get(path);
    if (owner !== undefined) {
      problems.push({
        index,
        message:
          owner === "cell"
            ? "expected a file path; the cell needs a directory there"
            : `expected a file path; files.${owner} needs a directory there`,
      });
    }
  }
  return problems;
}

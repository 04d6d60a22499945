import { posix } from "node:path";

import { z } from "zod";

import { CLI_CATALOG, type CliRow } from "../../clis/catalog.js";
import {
  cellFileProblem,
  cellLayout,
  fixturePathProblem,
  innermostRoot,
  pathClashes,
  underRoot,
} from "./fixture-paths.js";

/** The workspace's own sentinel directory, excluded from git so it never shows as a change. */
export const WORKSPACE_SENTINEL_DIR = ".witness-sentinels";

/** Files one fixture may plant. */
export const MAX_FIXTURE_FILES = 200;
/** Distinct marker names one fixture may plant. */
export const MAX_FIXTURE_MARKERS = 100;
/** Characters of one planted file's content (before markers are expanded). */
export const MAX_FIXTURE_FILE_CHARS = 256 * 1024;

/** Where a fixture file is planted, relative to the probe cell's layout. */
export const fileRootSchema = z.enum([
  /** the git workspace the CLI runs in */
  "workspace",
  /** the cell's temporary HOME */
  "home",
  /** the directory directly above the workspace's git root */
  "parent",
  /** the directory two levels above the workspace's git root */
  "grandparent",
  /** the cell's own root: extra directories a launch names with {{path:cell}} (e.g. staged/…) */
  "cell",
  /** the primary checkout: the workspace itself, or the checkout a nested worktree belongs to */
  "primary",
]);
export type FileRoot = z.infer<typeof fileRootSchema>;

/** One planted file. `{{marker:NAME}}` in content becomes a unique per-run marker. */
export const fixtureFileSchema = z
  .strictObject({
    at: fileRootSchema,
    /** Relative path below the root: plain segments, no `.`, `..` or `.git` (fixture-paths.ts). */
    path: z.string().superRefine((p, ctx) => {
      const problem = fixturePathProblem(p);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
    content: z.string().max(MAX_FIXTURE_FILE_CHARS, {
      message: `expected at most ${MAX_FIXTURE_FILE_CHARS} characters of content`,
    }),
    /**
     * Nested worktree only: plant this primary-checkout file after `git worktree add`, uncommitted,
     * so the worktree does not have it (absent: before, committed).
     */
    afterWorktree: z.boolean().optional(),
  })
  // A planted file there would pass for a sentinel the CLI created.
  .refine(
    (f) => f.at !== "workspace" || posix.normalize(f.path).split("/")[0] !== WORKSPACE_SENTINEL_DIR,
    {
      message: "expected a path outside .witness-sentinels/, where workspace sentinels are created",
      path: ["path"],
    },
  );
export type FixtureFile = z.infer<typeof fixtureFileSchema>;

/** Where a `{{sentinel:NAME}}` path lies: the cell's own directory, or inside the workspace. */
export const sentinelPlacementSchema = z.enum([
  /** `<cell root>/sentinels/NAME`, outside every directory the CLI is given (the default) */
  "cell",
  /** `<workspace>/.witness-sentinels/NAME`, a directory git is told to ignore */
  "workspace",
]);
export type SentinelPlacement = z.infer<typeof sentinelPlacementSchema>;

/**
 * What the cell does about the CLI's machine-wide managed files (its driver's `managedFiles`),
 * which no HOME or flag of the cell moves.
 */
export const managedModeSchema = z.enum([
  /** say in every observation which of them exist (the behaviour when the fixture says nothing) */
  "record",
  /** refuse to spawn while any of them exists */
  "require-absent",
  /** hide their directories from the CLI in a private mount namespace; refuse where none can be made */
  "mask",
]);
export type ManagedMode = z.infer<typeof managedModeSchema>;

/** The mode of a fixture that names none: what every lock before the field meant. */
export const DEFAULT_MANAGED_MODE: ManagedMode = "record";

/** A relative path below a root, by the same rule as a file's (plain segments, no `.git`). */
const plainRelative = z.string().superRefine((p, ctx) => {
  const problem = fixturePathProblem(p);
  if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
});

/** Where a cell's root lives: the temp directory, or witness's cache directory under HOME. */
export const cellRootKindSchema = z.enum(["temp", "home"]);
export type CellRootKind = z.infer<typeof cellRootKindSchema>;

/** A declarative description of the files and layout a probe spawn starts from. */
export const fixtureSchema = z
  .strictObject({
    /** Where the workspace sits: outside HOME (default), under HOME, or as a nested worktree. */
    workspace: z.enum(["outside-home", "under-home", "nested-worktree"]).default("outside-home"),
    /**
     * Mark the workspace trusted in the CLI's own config: Claude Code's ~/.claude.json
     * (hasTrustDialogAccepted), Codex's $CODEX_HOME/config.toml (projects.<ws>.trust_level).
     * Absent: untrusted, as on a fresh install (docs/adr/0011-fixture-trust-default.md).
     */
    trust: z.boolean().default(false),
    files: z
      .array(fixtureFileSchema)
      .max(MAX_FIXTURE_FILES, { message: `expected at most ${MAX_FIXTURE_FILES} files` })
      // Each marker is looked for in every planted file and every request: bounded before any work.
      .refine((files) => markerNamesIn(files).length <= MAX_FIXTURE_MARKERS, {
        message: `expected at most ${MAX_FIXTURE_MARKERS} distinct {{marker:NAME}} names`,
      })
      .default([]),
    /** Sentinels placed somewhere other than the cell (no default: absent keeps locked hashes). */
    sentinelsIn: z
      .record(z.string().regex(/^[A-Za-z0-9_]+$/), sentinelPlacementSchema, {
        error: (issue) =>
          issue.code === "invalid_key"
            ? "expected a sentinel name of letters, digits and _"
            : undefined,
      })
      .optional(),
    /**
     * Nested worktree only: where the worktree lies inside the primary checkout, e.g.
     * `.iterion/worktrees/run1` (absent: `ws`, directly inside it).
     */
    worktree: plainRelative.optional(),
    /** A directory below the workspace root the CLI starts in, made if missing (absent: the root). */
    cwd: plainRelative.optional(),
    /** Managed configuration: record, require-absent or mask (no default: absent keeps locked hashes). */
    managed: managedModeSchema.optional(),
    /**
     * Where the cell's root lives: `temp` (os.tmpdir(), the default) or `home` (`cells/` under
     * witness's cache directory, so a question about writes outside the workspace is not answered
     * by /tmp being writable). No default: absent keeps locked hashes.
     */
    cell: z.strictObject({ root: cellRootKindSchema }).optional(),
    /**
     * Remotely served feature flags, set the way the CLI caches them in its HOME (Claude Code:
     * `cachedGrowthBookFeatures` in ~/.claude.json), so an arm measures one side of a flag. The
     * driver then lets the CLI read its cache (for Claude Code, without
     * CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC; the flag service stays unreachable offline). Only for
     * a CLI whose catalog row names a flag cache. No default: absent keeps locked hashes.
     */
    featureFlags: z
      .record(z.string().regex(/^[A-Za-z0-9_.-]+$/), z.json(), {
        error: (issue) =>
          issue.code === "invalid_key"
            ? "expected a flag name of letters, digits, _, . and -"
            : undefined,
      })
      .optional(),
  })
  // Two files on one path, or a file where another (or the cell) needs a directory, cannot be planted.
  .superRefine((fixture, ctx) => {
    const layout = cellLayout(fixture.workspace, fixture.worktree);
    const placed = fixture.files.map((f, index) => ({
      path: underRoot(layout, f.at, f.path),
      index,
    }));
    fixture.files.forEach((f, index) => {
      const deepest = innermostRoot(layout, underRoot(layout, f.at, f.path));
      // `primary` names the workspace's or the parent's directory: judge directories, not names.
      if (layout[deepest] !== layout[f.at]) {
        ctx.addIssue({
          code: "custom",
          path: ["files", index, "at"],
          message: `expected at: ${deepest} for a path inside the ${deepest} directory; got ${f.at}`,
        });
        return;
      }
      // The cell's own names (its owner file, its directories) are never a fixture's to plant.
      const own = f.at === "cell" ? cellFileProblem(f.path) : null;
      if (own !== null)
        ctx.addIssue({ code: "custom", path: ["files", index, "path"], message: own });
    });
    for (const { index, message } of pathClashes(placed, layout.made)) {
      ctx.addIssue({ code: "custom", path: ["files", index, "path"], message });
    }
  });
export type Fixture = z.infer<typeof fixtureSchema>;

/** Where the nested layout's worktree lies inside the primary checkout when the fixture says nothing. */
export const DEFAULT_WORKTREE = "ws";

/** What is wrong with a fixture's feature flags for `cli` (no flag cache known) and its launch. */
export function flagProblems(
  fixture: Fixture,
  cli: string,
  launch: object,
): { path: (string | number)[]; message: string }[] {
  if (fixture.featureFlags === undefined) return [];
  if ("orchestrator" in launch)
    return [
      {
        path: ["featureFlags"],
        message:
          "expected featureFlags on an argv or node launch (an orchestrator's spawns do not take them yet)",
      },
    ];
  const row = (CLI_CATALOG as Record<string, CliRow | undefined>)[cli];
  if (row?.flagCache !== undefined) return [];
  const having = Object.entries(CLI_CATALOG as Record<string, CliRow>)
    .filter(([, r]) => r.flagCache !== undefined)
    .map(([name]) => name);
  return [
    {
      path: ["featureFlags"],
      message: `expected featureFlags only for a CLI whose flag cache witness knows (${having.join(", ")}); ${cli} has none`,
    },
  ];
}

/** What is wrong with a fixture's layout fields, each with its path below `fixture`. */
export function layoutProblems(fixture: Fixture): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const nested = fixture.workspace === "nested-worktree";
  if (fixture.worktree !== undefined && !nested)
    problems.push({
      path: ["worktree"],
      message: "expected worktree only with workspace: nested-worktree",
    });
  if (fixture.worktree !== undefined && fixture.worktree.split("/")[0] === ".git")
    problems.push({ path: ["worktree"], message: "expected a worktree path outside .git" });
  fixture.files.forEach((f, i) => {
    if (f.afterWorktree === undefined) return;
    if (!nested)
      problems.push({
        path: ["files", i, "afterWorktree"],
        message: "expected afterWorktree only with workspace: nested-worktree",
      });
    else if (f.at !== "primary" && f.at !== "parent")
      problems.push({
        path: ["files", i, "afterWorktree"],
        message:
          "expected afterWorktree only on a file at: primary (or parent, the same directory)",
      });
  });
  return problems;
}

const MARKER_RE = /\{\{marker:([A-Za-z0-9_]+)\}\}/g;

/** Marker names a fixture plants, in first-seen order. */
export function plantedMarkerNames(fixture: Fixture): string[] {
  return markerNamesIn(fixture.files);
}

function markerNamesIn(files: readonly { content: string }[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const match of file.content.matchAll(MARKER_RE)) names.add(match[1] ?? "");
  }
  return [...names];
}

import { posix } from "node:path";

import { z } from "zod";

import { cellLayout, fixturePathProblem, innermostRoot, pathClashes } from "./fixture-paths.js";

/** The workspace's own sentinel directory, excluded from git so it never shows as a change. */
export const WORKSPACE_SENTINEL_DIR = ".witness-sentinels";

/** Files one fixture may plant. */
export const MAX_FIXTURE_FILES = 200;
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

/** A declarative description of the files and layout a probe spawn starts from. */
export const fixtureSchema = z
  .strictObject({
    /** Where the workspace sits: outside HOME (default), under HOME, or as a nested worktree. */
    workspace: z.enum(["outside-home", "under-home", "nested-worktree"]).default("outside-home"),
    /**
     * Mark the workspace trusted in the CLI's own config: Claude Code's ~/.claude.json
     * (hasTrustDialogAccepted), Codex's $CODEX_HOME/config.toml (projects.<ws>.trust_level).
     */
    trust: z.boolean().default(true),
    files: z
      .array(fixtureFileSchema)
      .max(MAX_FIXTURE_FILES, { message: `expected at most ${MAX_FIXTURE_FILES} files` })
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
  })
  // Two files on one path, or a file where another (or the cell) needs a directory, cannot be planted.
  .superRefine((fixture, ctx) => {
    const layout = cellLayout(fixture.workspace);
    const placed = fixture.files.map((f, index) => ({
      path: `${layout[f.at]}/${f.path}`,
      index,
    }));
    fixture.files.forEach((f, index) => {
      const deepest = innermostRoot(layout, `${layout[f.at]}/${f.path}`);
      if (deepest !== f.at) {
        ctx.addIssue({
          code: "custom",
          path: ["files", index, "at"],
          message: `expected at: ${deepest} for a path inside the ${deepest} directory; got ${f.at}`,
        });
      }
    });
    for (const { index, message } of pathClashes(placed, layout.made)) {
      ctx.addIssue({ code: "custom", path: ["files", index, "path"], message });
    }
  });
export type Fixture = z.infer<typeof fixtureSchema>;

const MARKER_RE = /\{\{marker:([A-Za-z0-9_]+)\}\}/g;

/** Marker names a fixture plants, in first-seen order. */
export function plantedMarkerNames(fixture: Fixture): string[] {
  const names = new Set<string>();
  for (const file of fixture.files) {
    for (const match of file.content.matchAll(MARKER_RE)) names.add(match[1] ?? "");
  }
  return [...names];
}

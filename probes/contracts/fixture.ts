import { posix } from "node:path";

import { z } from "zod";

/** The workspace's own sentinel directory, excluded from git so it never shows as a change. */
export const WORKSPACE_SENTINEL_DIR = ".witness-sentinels";

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
    /** Relative path below the root, no `..`. */
    path: z
      .string()
      .min(1)
      .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), {
        message: "expected a relative path without '..'",
      }),
    content: z.string(),
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
export const fixtureSchema = z.strictObject({
  /** Where the workspace sits: outside HOME (default), under HOME, or as a nested worktree. */
  workspace: z.enum(["outside-home", "under-home", "nested-worktree"]).default("outside-home"),
  /**
   * Mark the workspace trusted in the CLI's own config: Claude Code's ~/.claude.json
   * (hasTrustDialogAccepted), Codex's $CODEX_HOME/config.toml (projects.<ws>.trust_level).
   */
  trust: z.boolean().default(true),
  files: z.array(fixtureFileSchema).default([]),
  /** Sentinels placed somewhere other than the cell (no default: absent keeps locked hashes). */
  sentinelsIn: z
    .record(z.string().regex(/^[A-Za-z0-9_]+$/), sentinelPlacementSchema, {
      error: (issue) =>
        issue.code === "invalid_key"
          ? "expected a sentinel name of letters, digits and _"
          : undefined,
    })
    .optional(),
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

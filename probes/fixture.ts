import { z } from "zod";

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
export const fixtureFileSchema = z.strictObject({
  at: fileRootSchema,
  /** Relative path below the root, no `..`. */
  path: z
    .string()
    .min(1)
    .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), {
      message: "expected a relative path without '..'",
    }),
  content: z.string(),
});
export type FixtureFile = z.infer<typeof fixtureFileSchema>;

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

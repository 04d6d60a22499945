// One glob reading for witness's own patterns over slash-separated paths: `**` across
// directories, `*` within a name, anchored at both ends.

/** Whether `path` matches `glob`. */
export function globMatches(glob: string, path: string): boolean {
  const body = glob
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((t) => t.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  return new RegExp(`^${body}$`, "u").test(path);
}

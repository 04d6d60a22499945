// Paths as a person reads them in messages.
import { relative } from "node:path";

/** A path shown to a person: relative to `cwd` when inside it, absolute otherwise. */
export function shownPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") ? file : rel;
}

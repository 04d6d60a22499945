// The one listing of docs/adr: every Markdown-like file at any depth and in any case, so an ADR
// a person reads (`0007-x.MD`, `sub/0007-x.md`, `0007-x.markdown`) is never one the gate skips.
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";

import { DOCS } from "./doc-paths.js";
import { InputError } from "./errors.js";
import { errnoCode } from "./fs-errors.js";

/** The most entries (files and folders, at any depth) docs/adr may hold: a bound on the walk. */
export const MAX_ADR_ENTRIES = 2000;
/** The deepest folder under docs/adr that is walked. */
export const MAX_ADR_DEPTH = 8;
/** The largest ADR file read (1 MiB). */
export const MAX_ADR_BYTES = 1024 * 1024;

const MARKDOWN = /\.(?:md|markdown|mdown|mkdn|mkd|mdwn|mdx)$/i;
const CANONICAL = /^\d{4}-[^/]+\.md$/;

/** One Markdown-like file of docs/adr (repository-relative path), or an entry refused by name. */
export interface AdrFile {
  path: string;
  /** Null when the file is an ADR the gate reads; otherwise why it is refused. */
  problem: string | null;
}

function problemOf(rel: string, entry: Dirent, depth: number): string | null {
  if (entry.isSymbolicLink()) return "a symlink; an ADR must be a file in docs/adr itself";
  if (!entry.isFile()) return "not a regular file";
  if (depth > 0 || !CANONICAL.test(entry.name))
    return `expected an ADR at ${DOCS.adr}/NNNN-<slug>.md (lower-case .md, no subfolder); a Markdown file here is read as a decision, so move or rename it (${rel})`;
  return null;
}

async function walk(root: string, rel: string, depth: number, out: AdrFile[], seen: { n: number }) {
  let entries: Dirent[];
  try {
    entries = await readdir(join(root, rel), { withFileTypes: true });
  } catch (error) {
    if (depth === 0 && errnoCode(error) === "ENOENT") return;
    throw new InputError(rel, [{ path: "", message: `cannot list (${errnoCode(error)})` }]);
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    seen.n += 1;
    if (seen.n > MAX_ADR_ENTRIES)
      throw new InputError(DOCS.adr, [
        { path: "", message: `expected at most ${MAX_ADR_ENTRIES} entries; got more` },
      ]);
    const path = join(rel, entry.name);
    if (entry.isDirectory()) {
      if (depth + 1 > MAX_ADR_DEPTH)
        out.push({ path, problem: `deeper than ${MAX_ADR_DEPTH} folders; not read` });
      else await walk(root, path, depth + 1, out, seen);
      continue;
    }
    // The folder's index is documentation, not a decision.
    if (depth === 0 && entry.name.toLowerCase() === "readme.md" && entry.isFile()) continue;
    if (!MARKDOWN.test(entry.name) && !entry.isSymbolicLink()) continue;
    out.push({ path, problem: problemOf(path, entry, depth) });
  }
}

/**
 * Every Markdown-like file under docs/adr of the repository at `root` (and every symlink there),
 * sorted; a file outside `docs/adr/NNNN-<slug>.md` carries the problem that refuses it.
 */
export async function listAdrFiles(root: string): Promise<AdrFile[]> {
  const out: AdrFile[] = [];
  await walk(root, DOCS.adr, 0, out, { n: 0 });
  return out;
}

/** The id a canonical ADR file name declares (`0007-x.md` → `0007`), or null. */
export function adrFileId(path: string): string | null {
  return /^(\d{4})-/.exec(basename(path))?.[1] ?? null;
}

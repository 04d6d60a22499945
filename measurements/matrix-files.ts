// `witness matrix`: the pages and feeds of docs/versions, generated from the records on disk,
// written (each file whole) or checked against what is there.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";
import { DOCS } from "../core/doc-paths.js";
import { repoRoot } from "../core/git.js";
import { reexpressedHashes } from "../prereg/verify.js";
import { readRecordFilesIn } from "./drift.js";
import { buildMatrices } from "./matrix.js";
import { renderFeeds, renderMatrixPage } from "./matrix-page.js";

/** A generated file and its text. */
export interface MatrixFile {
  path: string;
  text: string;
}

/** The files the records in `recordsDir` give: `<cli>.md` per CLI, `feed.json`, `feed.atom`. */
export async function matrixFiles(
  recordsDir: string,
  pagesDir: string,
  sameLock: ReadonlyMap<string, string> = new Map(),
  base?: string,
): Promise<MatrixFile[]> {
  const matrices = buildMatrices(await readRecordFilesIn(recordsDir), sameLock);
  const feeds = renderFeeds(matrices, base);
  return [
    ...matrices.map((m) => ({
      path: join(pagesDir, `${m.cli}.md`),
      text: renderMatrixPage(m, pagesDir),
    })),
    { path: join(pagesDir, "feed.json"), text: feeds.json },
    { path: join(pagesDir, "feed.atom"), text: feeds.atom },
  ];
}

/** The generated files whose text on disk differs (or which are missing). */
export async function staleMatrixFiles(files: readonly MatrixFile[]): Promise<string[]> {
  const stale: string[] = [];
  for (const f of files) {
    const had = await readFile(f.path, "utf8").catch(() => null);
    if (had !== f.text) stale.push(f.path);
  }
  return stale;
}

/** Writes each file that changed, each whole; returns the ones written. */
export async function writeMatrixFiles(files: readonly MatrixFile[]): Promise<string[]> {
  const stale = await staleMatrixFiles(files);
  for (const f of files) if (stale.includes(f.path)) await writeFileAtomic(f.path, f.text);
  return stale;
}

/**
 * The files for the repository at `cwd`: its docs/measurements and docs/versions unless `dir`
 * (records) or `out` (pages) name others.
 */
export async function repoMatrixFiles(
  cwd: string,
  options: { dir?: string; out?: string; base?: string } = {},
): Promise<MatrixFile[]> {
  const root = options.dir === undefined || options.out === undefined ? await repoRoot(cwd) : cwd;
  const dir = options.dir === undefined ? join(root, DOCS.measurements) : resolve(cwd, options.dir);
  const out = options.out === undefined ? join(root, DOCS.versions) : resolve(cwd, options.out);
  return matrixFiles(dir, out, await reexpressedHashes({ cwd }), options.base);
}

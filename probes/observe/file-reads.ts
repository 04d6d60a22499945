// The instruction-like files a traced spawn read: under the cell (workspace, its ancestors in the
// cell, HOME, the temp and config directories) or at a machine-wide path the CLI's facts name,
// each with the marker planted in it (null: witness planted none there: a finding) and whether
// that marker reached the model.
import { basename, isAbsolute, relative, sep } from "node:path";

import type { CliFacts } from "../../clis/facts.js";
import { globMatches } from "../../core/glob.js";
import type { Observation } from "../contracts/observation.js";

/** One instruction-like file a spawn opened for reading. */
export interface FileRead {
  /** Cell-relative (e.g. `home/.claude/CLAUDE.md`), or absolute outside the cell. */
  path: string;
  /** A file the CLI's facts list as an instruction file it reads. */
  known: boolean;
  /** The marker planted in it; null when witness planted none there. */
  marker: string | null;
  /** Whether that marker reached the model (null without a marker). */
  reachedModel: boolean | null;
  /** The programs whose processes opened it, comma-separated (the CLI's own, git computing a status …). */
  by?: string;
}

const GENERIC_NAME =
  /\.(md|mdc|markdown)$|^(settings(\.local)?|config|\.?mcp|mcp_config|managed-settings|managed-mcp|hooks)\.(json|jsonc|toml|ya?ml)$|^\.(cursorrules|windsurfrules|clinerules)$/i;
const GENERIC_DIRS = new Set([
  "rules",
  "skills",
  "hooks",
  "commands",
  "agents",
  "prompts",
  ".clinerules",
]);
/** Files witness itself keeps in a cell: never the CLI's input. */
const WITNESS_OWN = /(^|\/)(witness-[^/]*|\.witness-sentinels|sentinels)(\/|$)/;

/** Whether a cell-relative or absolute path names an instruction-like file. */
export function instructionLike(path: string, facts: CliFacts): { like: boolean; known: boolean } {
  // A fact's path is relative to its root: it matches the tail of a cell-relative path.
  const known = facts.instructionFiles.some((f) => globMatches(`**/${f.path}`, path));
  const dirs = path.split("/").slice(0, -1);
  const like = known || GENERIC_NAME.test(basename(path)) || dirs.some((d) => GENERIC_DIRS.has(d));
  return { like, known };
}

/** The instruction-like reads among `opened` (absolute paths), relative to the cell at `root`. */
export function instructionReads(
  opened: readonly string[],
  root: string,
  markers: Observation["markers"],
  facts: CliFacts,
  programs: Readonly<Record<string, string>> = {},
): FileRead[] {
  const reads: FileRead[] = [];
  for (const abs of opened) {
    const rel = relative(root, abs);
    const inCell = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
    const managed = facts.managedFiles.some((m) => abs === m || abs.startsWith(`${m}/`));
    if (!inCell && !managed) continue;
    const path = inCell ? rel.split(sep).join("/") : abs;
    if (inCell && WITNESS_OWN.test(path)) continue;
    const { like, known } = instructionLike(path, facts);
    if (!like && !managed) continue;
    const marker = markers.find((m) => m.planted.includes(path)) ?? null;
    reads.push({
      path,
      known,
      marker: marker?.name ?? null,
      reachedModel: marker === null ? null : marker.seenIn.length > 0,
      ...(programs[abs] === undefined ? {} : { by: programs[abs] }),
    });
  }
  return reads;
}

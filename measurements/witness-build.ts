// Which witness wrote a record: its package version and the commit of its code, so a record can
// be reproduced with the same harness (a checkout asks git; a packed install reads build-info).
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { z } from "zod";

import { InternalError } from "../core/errors.js";
import { runGit } from "../core/git.js";

/** The witness that ran: version, and commit (null when neither git nor build-info knows). */
export const witnessBuildSchema = z.object({
  version: z.string(),
  commit: z.string().nullable(),
  /** True when the checkout had uncommitted changes to tracked files. */
  dirty: z.boolean().optional(),
});
export type WitnessBuild = z.infer<typeof witnessBuildSchema>;

/**
 * The package root: the nearest directory above `from` whose package.json is witness's own. Its
 * name decides, not a `cli/` folder beside it: a packed install has none, and the project that
 * depends on witness may have one of its own.
 */
export function packageRoot(from = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (packageName(join(dir, "package.json")) === WITNESS_PACKAGE) return dir;
    if (dirname(dir) === dir)
      throw new InternalError(`no package.json named "${WITNESS_PACKAGE}" above ${from}`);
  }
}

const WITNESS_PACKAGE = "witness";

function packageName(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const name = (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
}

/** The file `npm pack` leaves beside dist/ with the commit it was built from. */
export const BUILD_INFO = join("dist", "build-info.json");

let cached: Promise<WitnessBuild> | null = null;

async function read(root: string): Promise<WitnessBuild> {
  const pkg = z
    .object({ version: z.string() })
    .parse(JSON.parse(await readFile(join(root, "package.json"), "utf8")));
  if (existsSync(join(root, ".git"))) {
    const head = await runGit(["rev-parse", "HEAD"], { cwd: root });
    if (head.exitCode === 0) {
      const status = await runGit(["status", "--porcelain", "--untracked-files=no"], { cwd: root });
      return {
        version: pkg.version,
        commit: head.stdout.trim(),
        dirty: status.exitCode === 0 && status.stdout.trim() !== "",
      };
    }
  }
  try {
    const info = witnessBuildSchema.parse(
      JSON.parse(await readFile(join(root, BUILD_INFO), "utf8")),
    );
    return { ...info, version: pkg.version };
  } catch {
    return { version: pkg.version, commit: null };
  }
}

/** The running witness's version and commit (asked once per process). */
export function witnessBuild(root = packageRoot()): Promise<WitnessBuild> {
  cached ??= read(root);
  return cached;
}

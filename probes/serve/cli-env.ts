// What a person exports to point each CLI in the catalog at a served fake model: the variables and
// flags its driver gives a probe spawn, and the files its driver plants in a cell's HOME (written
// into a scratch HOME here and read back), with no cell path in any of them.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

import { CLI_NAMES, PROBE_CLI_NAMES, type ProbeCliName } from "../../clis/names.js";
import { PINNED } from "../../clis/pinned.js";
import { makeDirs } from "../../core/make-dirs.js";
import type { CellPaths } from "../drivers/driver.js";
import { driverFor } from "../drivers/index.js";

// Switches a probe needs only because its cell runs as root (Claude Code's bypass modes refuse to
// start as root without IS_SANDBOX): not the provider's plumbing, and wrong outside a cell.
const CELL_ONLY = new Set(["IS_SANDBOX"]);

/** A file the CLI reads its provider or settings from, as `~/<path>` and its content (null: an empty directory). */
export interface HomeFile {
  path: string;
  content: string | null;
}

/** How one CLI is pointed at the fake: its base URL, variables, flags, and files in its HOME. */
export interface CliEnv {
  cli: ProbeCliName;
  /** The CLI's own base URL: the server's, then `/<cli>` (the fake answers it with that CLI's script naming). */
  baseUrl: string;
  env: Record<string, string>;
  /** Arguments to put before the CLI's own (Codex's provider flags); empty for most CLIs. */
  args: string[];
  /** What the driver plants in a cell's HOME before a spawn (settings, a provider, seeds). */
  files: HomeFile[];
}

/** The base URL one CLI is given: its own path prefix on the server. */
export function cliBaseUrl(serverUrl: string, cli: ProbeCliName): string {
  return `${serverUrl}/${cli}`;
}

/** The env, flags and HOME files that point `cli` (at its pinned version) at the fake on `serverUrl`. */
export async function cliEnv(serverUrl: string, cli: ProbeCliName): Promise<CliEnv> {
  const baseUrl = cliBaseUrl(serverUrl, cli);
  const driver = driverFor(cli);
  const version = PINNED[cli].version;
  const launched = driver.launch({ argv: [], baseUrl, version });
  const env = Object.fromEntries(
    Object.entries(launched.env).filter(([name]) => !CELL_ONLY.has(name)),
  );
  return { cli, baseUrl, env, args: launched.args, files: await homeFiles(cli, baseUrl, env) };
}

// The driver's own set-up run on a scratch HOME; what it wrote there is what the CLI needs.
async function homeFiles(
  cli: ProbeCliName,
  baseUrl: string,
  env: Record<string, string>,
): Promise<HomeFile[]> {
  const driver = driverFor(cli);
  if (driver.prepareCell === undefined && driver.prepare === undefined) return [];
  const root = await mkdtemp(join(tmpdir(), "witness-serve-env-"));
  try {
    const home = join(root, "home");
    const cell: CellPaths = {
      root,
      home,
      workspace: join(root, "ws"),
      codexHome: join(home, ".codex"),
    };
    await makeDirs(home);
    await driver.prepareCell?.(cell);
    const version = PINNED[cli].version;
    await driver.prepare?.({ cell, env: { ...env, HOME: home }, baseUrl, version });
    const files: HomeFile[] = [];
    for (const [file, isDir] of await listFiles(home))
      files.push({
        path: `~/${relative(home, file)}${isDir ? "/" : ""}`,
        content: isDir ? null : await readFile(file, "utf8"),
      });
    return files;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

// Files, and directories left empty (opencode's seeded node_modules), as [path, isDirectory].
async function listFiles(dir: string): Promise<[string, boolean][]> {
  const out: [string, boolean][] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile()) out.push([path, false]);
    else if (entry.isDirectory()) {
      const inner = await listFiles(path);
      out.push(...(inner.length === 0 ? [[path, true] as [string, boolean]] : inner));
    }
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

/** Every CLI with a driver, in catalog order. */
export function allCliEnvs(serverUrl: string): Promise<CliEnv[]> {
  return Promise.all(PROBE_CLI_NAMES.map((cli) => cliEnv(serverUrl, cli)));
}

/** The catalog's CLIs without a driver: witness knows no plumbing that points them at the fake. */
export function undrivenClis(): string[] {
  const driven: readonly string[] = PROBE_CLI_NAMES;
  return CLI_NAMES.filter((cli) => !driven.includes(cli));
}

// POSIX single quotes: a value holding `'` closes, escapes and reopens them.
function quote(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

// A JSON file's content on one line, compacted; any other text as a JSON string.
function oneLine(content: string): string {
  try {
    return JSON.stringify(JSON.parse(content));
  } catch {
    return JSON.stringify(content);
  }
}

/** The shell lines for one CLI: a comment naming it, `export` lines, its flags and files as comments. */
export function renderCliEnv(entry: CliEnv): string {
  const lines = [`# ${entry.cli}`];
  for (const [name, value] of Object.entries(entry.env))
    lines.push(`export ${name}=${quote(value)}`);
  if (entry.args.length > 0)
    lines.push(`# and pass these flags first: ${entry.args.map(quote).join(" ")}`);
  for (const file of entry.files)
    if (file.content === null) lines.push(`# and create the directory ${file.path}`);
    else lines.push(`# and write ${file.path}:`, `#   ${oneLine(file.content)}`);
  return lines.join("\n");
}

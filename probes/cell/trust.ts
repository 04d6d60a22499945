// Workspace trust in the cell's own CLI config files (never the operator's).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Marks the workspace trusted in Claude Code's ~/.claude.json. */
export async function trustWorkspace(home: string, workspace: string): Promise<void> {
  const file = join(home, ".claude.json");
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch {
    // absent or not JSON: start from an empty config
  }
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>;
  projects[workspace] = { ...(projects[workspace] ?? {}), hasTrustDialogAccepted: true };
  await writeFile(file, JSON.stringify({ ...config, projects }, null, 2));
}

/** Marks the workspace trusted in Codex's config.toml. */
export async function trustCodexWorkspace(codexHome: string, workspace: string): Promise<void> {
  const file = join(codexHome, "config.toml");
  let config = "";
  try {
    config = await readFile(file, "utf8");
  } catch {
    // absent: the trust table is the whole config
  }
  // A table appended at the end leaves whatever top-level keys the fixture wrote untouched.
  const table = `[projects.${JSON.stringify(workspace)}]\ntrust_level = "trusted"\n`;
  await writeFile(file, `${config}${config === "" || config.endsWith("\n") ? "" : "\n"}\n${table}`);
}

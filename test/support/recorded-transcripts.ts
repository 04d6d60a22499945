// Test helper: the recorded fixtures and their meta.json, and copies placed into a temp HOME.
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { z } from "zod";

/** Folder holding one subfolder per recorded run. */
export const FIXTURES_DIR = join(
  import.meta.dirname,
  "..",
  "..",
  "transcripts",
  "test",
  "fixtures",
);

const metaSchema = z.object({
  cli: z.string(),
  scenario: z.string(),
  exitCode: z.number().nullable(),
  cwd: z.string(),
  home: z.string(),
  sessionPath: z.string(),
  requests: z.number(),
});

/** One recorded run: where its file is and what the recording script noted about it. */
export interface Recorded {
  dir: string;
  name: string;
  cli: "claude-code" | "codex";
  version: string;
  scenario: string;
  /** The session.jsonl or rollout.jsonl the CLI wrote. */
  file: string;
  meta: z.infer<typeof metaSchema>;
}

/** Every recorded fixture of `cli`, optionally only one scenario. */
export function recorded(cli: Recorded["cli"], scenario?: string): Recorded[] {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => name.startsWith(`${cli}-`))
    .map((name) => {
      const dir = join(FIXTURES_DIR, name);
      const meta = metaSchema.parse(JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")));
      const version = meta.cli.slice(meta.cli.lastIndexOf("@") + 1);
      const file = join(dir, cli === "claude-code" ? "session.jsonl" : "rollout.jsonl");
      return { dir, name, cli, version, scenario: meta.scenario, file, meta };
    })
    .filter((r) => scenario === undefined || r.scenario === scenario)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The session id a fixture's file name carries (Claude: `<id>.jsonl`; Codex: `rollout-…-<id>.jsonl`). */
export function sessionIdOf(r: Recorded): string {
  const base = r.meta.sessionPath.split("/").at(-1) ?? "";
  if (r.cli === "claude-code") return base.replace(/\.jsonl$/, "");
  const match = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(
    base,
  );
  return match?.[1] ?? "";
}

/** A fresh temp HOME with each fixture copied to where its CLI wrote it. */
export async function homeWith(...runs: Recorded[]): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "witness-d-home-"));
  created.push(home);
  for (const r of runs) {
    const target = join(home, r.meta.sessionPath);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(r.file, target);
  }
  return home;
}

const created: string[] = [];

/** Removes every temp HOME made by homeWith in this test file (call from afterAll). */
export async function removeHomes(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

// Test helper: the recorded fixtures (transcript, meta.json, truth.json), and copies placed into
// a temp HOME where the CLI wrote them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { z } from "zod";

import { driverFor } from "../../probes/drivers/index.js";

/** Folder holding one subfolder per recorded run. */
export const FIXTURES_DIR = join(
  import.meta.dirname,
  "..",
  "..",
  "transcripts",
  "test",
  "fixtures",
);

/** Where the recording found things, relative to the cell (written by scripts/record-transcripts.ts). */
export const recordedMetaSchema = z.object({
  cli: z.string(),
  scenario: z.string(),
  exitCode: z.number().nullable(),
  cwd: z.string(),
  home: z.string(),
  /** The transcript, relative to HOME. */
  sessionPath: z.string(),
  /** Sidechain files the CLI wrote beside it, relative to HOME (copied to `sidechains/`). */
  sidechainPaths: z.array(z.string()).default([]),
  requests: z.number(),
});
export type RecordedMeta = z.infer<typeof recordedMetaSchema>;

/** One call as the cell saw it: what the fake issued, what it got back, what the disk shows. */
export const truthCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  /** Whether the agent requests offered a tool of that name. */
  offered: z.boolean(),
  /** The sentinel the call writes, and whether it exists after the run. */
  sentinel: z.object({ name: z.string(), created: z.boolean() }).nullable(),
  /** The exit status the command must end with (its own `exit N`, or 0 when its sentinel exists). */
  exitCode: z.number().int().nullable(),
  outcome: z.enum(["ran", "denied", "no-such-tool", "error"]),
  /** Which fact of the cell decided the outcome. */
  because: z.string(),
  /** What the CLI sent back to the model for it, from the fake server's log. */
  wireResult: z.object({ isError: z.boolean(), text: z.string() }).nullable(),
});
export type TruthCall = z.infer<typeof truthCallSchema>;

/** The ground truth of one recording, built from the cell, never from the transcript. */
export const truthSchema = z.object({
  schema: z.literal("witness.transcript-truth/1"),
  cli: z.enum(["claude-code", "codex", "copilot", "kilo", "kimi", "cline"]),
  version: z.string(),
  scenario: z.string(),
  /** The binary and arguments the cell ran. */
  argv: z.array(z.string()),
  exitCode: z.number().int().nullable(),
  /** The session id the CLI printed (Claude Code's JSON result, Codex's banner). */
  sessionId: z.string().nullable(),
  cwd: z.string(),
  /** The model the agent requests named. */
  model: z.string().nullable(),
  /** The text the fake model answered last. */
  finalText: z.string(),
  /** `--permission-mode` on the argv, when given. */
  permissionMode: z.string().nullable(),
  /** `--sandbox`/`-s` on the argv, when given. */
  sandboxPolicy: z.string().nullable(),
  toolsOffered: z.array(z.string()),
  calls: z.array(truthCallSchema),
});
export type Truth = z.infer<typeof truthSchema>;

/** One recorded run: where its files are and what the recording noted about it. */
export interface Recorded {
  dir: string;
  name: string;
  cli: "claude-code" | "codex" | "copilot" | "kilo" | "kimi" | "cline";
  version: string;
  scenario: string;
  /** The session.jsonl or rollout.jsonl the CLI wrote. */
  file: string;
  /** Sidechain files copied beside it (`sidechains/<name>`). */
  sidechains: string[];
  meta: RecordedMeta;
  /** What the cell saw: the ground truth every parse is compared with. */
  truth: Truth;
}

/** Every recorded fixture of `cli`, optionally only one scenario. */
export function recorded(cli: Recorded["cli"], scenario?: string): Recorded[] {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => name.startsWith(`${cli}-`))
    .map((name) => {
      const dir = join(FIXTURES_DIR, name);
      const read = (file: string): unknown => JSON.parse(readFileSync(join(dir, file), "utf8"));
      const meta = recordedMetaSchema.parse(read("meta.json"));
      const truth = truthSchema.parse(read("truth.json"));
      const version = meta.cli.slice(meta.cli.lastIndexOf("@") + 1);
      const file = join(dir, driverFor(cli).sessionFixture?.name ?? "session.jsonl");
      const sidechains = meta.sidechainPaths.map((p) =>
        join(dir, "sidechains", p.split("/").at(-1) ?? p),
      );
      return { dir, name, cli, version, scenario: meta.scenario, file, sidechains, meta, truth };
    })
    .filter((r) => scenario === undefined || r.scenario === scenario)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The session id a fixture's file name carries (Claude: `<id>.jsonl`; Codex: `rollout-…-<id>.jsonl`). */
export function sessionIdOf(r: Recorded): string {
  const base = r.meta.sessionPath.split("/").at(-1) ?? "";
  // The id ends either name (the whole of Claude's, the tail of Codex's).
  const match = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(base);
  return match?.[1] ?? "";
}

/** A fresh temp HOME with each fixture (and its sidechains) copied to where its CLI wrote it. */
export async function homeWith(...runs: Recorded[]): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "witness-d-home-"));
  created.push(home);
  for (const r of runs) {
    const places: [string, string][] = [
      [r.file, r.meta.sessionPath],
      ...r.sidechains.map((file, i): [string, string] => [file, r.meta.sidechainPaths[i] ?? ""]),
    ];
    for (const [from, to] of places) {
      const target = join(home, to);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(from, target);
    }
    // A session's companion files go beside it (Kilo's kilo.db-wal).
    for (const suffix of driverFor(r.cli).sessionFixture?.companions ?? []) {
      const from = `${r.file}${suffix}`;
      if (existsSync(from)) await copyFile(from, join(home, `${r.meta.sessionPath}${suffix}`));
    }
  }
  return home;
}

const created: string[] = [];

/** Removes every temp HOME made by homeWith in this test file (call from afterAll). */
export async function removeHomes(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

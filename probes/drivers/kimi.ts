// The Kimi Code driver: its single-file Node bundle on the Node its engines ask for (>= 22.19),
// the KIMI_MODEL_* family pointing an in-memory provider at the fake's Chat Completions (nothing
// written, no login), telemetry and update checks off, sessions read from its wire.jsonl files.
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { CLI_CATALOG } from "../../clis/catalog.js";
import { classifyKimiCall } from "../../clis/kimi/outcome.js";
import {
  kimiHomeDir,
  kimiRecorded,
  kimiSessionFile,
  readKimiWire,
} from "../../transcripts/kimi-wire.js";
import { openaiChat } from "../fake/openai-chat.js";
import {
  type CellPaths,
  noTranscript,
  type ProbeDriver,
  type RejectedArgv,
  type TranscriptFacts,
  type TranscriptHints,
} from "./driver.js";
import { DUMMY_KEY, sessionTranscript } from "./shared.js";

/** The model id the cell's Kimi sends (KIMI_MODEL_NAME). */
export const KIMI_MODEL = "fake-model";

/** Kimi's key for a working directory: `wd_<slug of its name>_<sha256(path)[:12]>` (2.1.0 bundle). */
export function kimiWorkDirKey(workDir: string): string {
  const normalized = workDir.replace(/\\/g, "/").replace(/\/+$/, "");
  const name = normalized.split("/").pop() ?? normalized;
  const trim = (s: string) => s.replaceAll(/^-+|-+$/g, "");
  const slug = trim(trim(name.toLowerCase().replaceAll(/[^a-z0-9._-]+/g, "-")).slice(0, 40));
  const hash = createHash("sha256").update(normalized).digest("hex").slice(0, 12);
  return `wd_${slug === "" || slug === "." || slug === ".." ? "workspace" : slug}_${hash}`;
}

/**
 * Trust as 2.x persists it: `workspace-trust/<workDirKey>` under ~/.kimi-code holding the root and
 * a time (what "Trust this folder" writes). 0.x has no trust and never reads the file.
 */
async function trustWorkspace(cell: CellPaths): Promise<void> {
  const dir = join(cell.home, ".kimi-code", "workspace-trust");
  await mkdir(dir, { recursive: true });
  const record = { root: cell.workspace, trustedAt: Date.now() };
  await writeFile(join(dir, kimiWorkDirKey(cell.workspace)), `${JSON.stringify(record)}\n`);
}

/**
 * The option Kimi refused before any request: commander's `error: unknown option '--x'`, or its
 * own `error: Cannot combine --prompt with --yolo.` (also --auto, --plan); null otherwise.
 */
export function kimiRejectedArgv(stderr: string): RejectedArgv | null {
  const unknown = /^error: unknown option '([^']+)'.*$/m.exec(stderr);
  if (unknown?.[1] !== undefined) return { flag: unknown[1], message: unknown[0] };
  const combine = /^error: Cannot combine --prompt with (--[\w-]+)\.?$/m.exec(stderr);
  return combine?.[1] === undefined ? null : { flag: combine[1], message: combine[0] };
}

async function readTranscript(
  env: Readonly<Record<string, string>>,
  hints: TranscriptHints,
): Promise<TranscriptFacts> {
  const home = kimiHomeDir(env);
  const path = home === null ? null : await kimiSessionFile(home, hints.stderr);
  if (path === null) return noTranscript();
  const session = await readKimiWire(path, { markers: hints.markers });
  return sessionTranscript(
    path,
    { ...session, modes: session.permissionModes },
    kimiRecorded,
    classifyKimiCall,
  );
}

/** Kimi Code (`@moonshot-ai/kimi-code`), as the probe cell runs it. */
export const kimiDriver: ProbeDriver = {
  name: "kimi",
  info: CLI_CATALOG.kimi,
  // Plain Chat Completions (provider type openai); one request per turn, no helper or side calls.
  wire: openaiChat,
  naming: (call) =>
    "shell" in call
      ? { name: "Bash", input: { command: call.shell } }
      : { name: call.tool, input: call.input },
  launch: ({ argv, baseUrl, stdin }) => ({
    args: [...argv],
    env: {
      KIMI_MODEL_NAME: KIMI_MODEL,
      KIMI_MODEL_API_KEY: DUMMY_KEY,
      KIMI_MODEL_PROVIDER_TYPE: "openai",
      KIMI_MODEL_BASE_URL: `${baseUrl}/v1`,
      // Else DNS for telemetry-logs.kimi.com and code.kimi.com (update manifest).
      KIMI_DISABLE_TELEMETRY: "1",
      KIMI_CODE_NO_AUTO_UPDATE: "1",
      // 2.x: one attempt per step, not ten retries over 155 s (0.x ignores it).
      KIMI_LOOP_MAX_ATTEMPTS_PER_STEP: "1",
    },
    // Kimi reads no prompt from stdin (-p takes it); a launch's stdin is passed as given.
    ...(stdin === undefined ? {} : { stdin }),
  }),
  trustWorkspace,
  rejectedArgv: kimiRejectedArgv,
  readTranscript,
  classify: classifyKimiCall,
  sessionFixture: { name: "wire.jsonl" },
};

// The program transcripts.bench.ts runs in a child process per measurement, as source text for
// `node --input-type=module -e <source> <reader> <file> <dist dir>`: a fresh heap each time, plain
// node and the built readers in dist/, as `witness` itself runs them. It prints one JSON line:
// the reader's time, what it found, and the process's peak RSS.

/** The readers the child knows; `baseline` is the bare loop the parsers are compared with. */
export const CHILD_READERS = [
  "baseline",
  "claude",
  "codex",
  "claude-latest",
  "codex-latest",
] as const;
export type ChildReader = (typeof CHILD_READERS)[number];

/** ES module source for `node --input-type=module -e`. */
export const CHILD_SOURCE = `
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [name, file, dist] = process.argv.slice(1);
const load = (module) => import(pathToFileURL(dist + "/transcripts/" + module).href);
// Loaded before the clock starts: module loading is not the reader's cost.
const claude = await load("claude-session.js");
const codex = await load("codex-rollout.js");
const latest = await load("latest-policy.js");

// readline and JSON.parse, nothing kept: what any reader of the file has to pay.
async function baseline(path) {
  let records = 0;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === "") continue;
    JSON.parse(line);
    records += 1;
  }
  return records;
}

const readers = {
  baseline,
  claude: async (path) => (await claude.readClaudeSession(path)).calls.length,
  codex: async (path) => (await codex.readCodexRollout(path)).calls.length,
  "claude-latest": async (path) => (await latest.latestClaudePermissionMode(path))?.mode ?? null,
  "codex-latest": async (path) => (await latest.latestCodexTurnContext(path))?.sandboxPolicy ?? null,
};
const started = performance.now();
const found = await readers[name](file);
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ ms, found, maxRssKb: process.resourceUsage().maxRSS }) + "\\n");
`;

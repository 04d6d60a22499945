// Run in a child process by transcripts.bench.ts (after `npm run build`): reads one file with one
// reader from dist/ and prints its time, what it found and the process's peak RSS, so every
// measurement starts from a fresh heap and plain node, as `witness` itself runs.
// Usage: node bench/transcript-child.mjs <baseline|claude|codex|claude-latest|codex-latest> <file>
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

const dist = new URL("../dist/transcripts/", import.meta.url);

/** The bare loop the parsers are compared with: readline and JSON.parse, nothing kept. */
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
  claude: async (path) =>
    (await (await import(new URL("claude-session.js", dist))).readClaudeSession(path)).calls.length,
  codex: async (path) =>
    (await (await import(new URL("codex-rollout.js", dist))).readCodexRollout(path)).calls.length,
  "claude-latest": async (path) =>
    (await (await import(new URL("latest-policy.js", dist))).latestClaudePermissionMode(path))?.mode,
  "codex-latest": async (path) =>
    (await (await import(new URL("latest-policy.js", dist))).latestCodexTurnContext(path))
      ?.sandboxPolicy,
};

const [name, file] = process.argv.slice(2);
const reader = readers[name];
if (reader === undefined || file === undefined)
  throw new Error(`usage: transcript-child.mjs <${Object.keys(readers).join("|")}> <file>`);
// Imported before the clock starts: module loading is not the reader's cost.
await import(new URL("claude-session.js", dist));
await import(new URL("codex-rollout.js", dist));
await import(new URL("latest-policy.js", dist));
const started = performance.now();
const found = await reader(file);
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, found, maxRssKb: process.resourceUsage().maxRSS })}\n`);

// The README's promise about HOME: witness's own commands read nothing of the operator's HOME
// but the vendor cache (~/.cache/witness) and npm's own configuration (~/.npmrc, ~/.npm). The
// built CLI runs its main commands with HOME at a directory of marker files; every file access
// under it is traced (strace) or, without strace, seen in the markers' access times.
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { runProcess } from "../core/exec.js";
import { builtCli, WITNESS_ROOT } from "./support/built-cli.js";
import { protocolText } from "./support/observations.js";
import { commit, put, tempGitRepo } from "./support/witness-repo.js";

const LONG_AGO = new Date("2000-01-01T00:00:00Z");

/** What may be read under HOME, by the promise. */
const ALLOWED = [".cache/witness", ".npmrc", ".npm"];

const MARKERS = [
  ".gitconfig",
  ".config/git/config",
  ".config/git/ignore",
  ".config/git/attributes",
  ".claude.json",
  ".claude/settings.json",
  ".claude/CLAUDE.md",
  ".codex/config.toml",
  ".codex/AGENTS.md",
  ".config/opencode/opencode.json",
  ".gemini/settings.json",
  ".config/witness/config.yaml",
  ".ssh/config",
  ".profile",
  ".npmrc",
];

let home = "";
let repo: { dir: string; cleanup: () => Promise<void> };
const PATH = { PATH: process.env.PATH ?? "" };
const strace =
  (await runProcess({ file: "strace", args: ["-V"], env: PATH, cwd: tmpdir() })).exitCode === 0;
// Without strace, access times must work here (no noatime mount), or the test cannot see a read.
async function atimesWork(): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), "witness-atime-"));
  try {
    const control = join(dir, "control");
    await writeFile(control, "control\n");
    await utimes(control, LONG_AGO, new Date());
    await runProcess({ file: "cat", args: [control], env: PATH, cwd: dir });
    return (await stat(control)).atimeMs > LONG_AGO.getTime() + 1000;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const atimes = strace || (await atimesWork());
if (!atimes)
  console.warn("home.e2e.test.ts: skipped: neither strace nor access times can see a read here");

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "witness-marker-home-"));
  for (const rel of MARKERS) {
    await mkdir(dirname(join(home, rel)), { recursive: true });
    await writeFile(join(home, rel), `MARKER-${rel}\n`);
  }
  repo = await tempGitRepo();
  await put(repo.dir, "docs/prereg/0001-demo.yaml", protocolText());
  await put(repo.dir, "docs/adr/0001-demo.md", "# 0001\n\nStatus: Proposed\nRequires: 0001\n");
  const record = "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json";
  await put(repo.dir, record, await readFile(join(WITNESS_ROOT, record), "utf8"));
  await commit(repo.dir, "register");
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await repo.cleanup();
});

const records = [
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json",
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json",
].map((r) => join(WITNESS_ROOT, r));

// [where, argv]: the commands that read a user's repository, files and git.
const COMMANDS: [string, string[]][] = [
  ["repo", ["prereg", "lock", "docs/prereg/0001-demo.yaml"]],
  ["repo", ["prereg", "verify"]],
  ["repo", ["adr", "status"]],
  ["repo", ["adr", "check"]],
  ["witness", ["argv", "--node", "orchestrator/examples/planned-claude.yaml"]],
  ["witness", ["plan", "--workflow", "orchestrator/examples/workflow.yaml"]],
  ["witness", ["diff", ...records]],
  ["scratch", ["shim", "install", "--dir", "shims", "claude", "codex"]],
  ["witness", ["--help"]],
];

async function runTraced(args: string[], cwd: string, log: string) {
  const env = { PATH: process.env.PATH ?? "", HOME: home, LANG: "C.UTF-8", NO_COLOR: "1" };
  const node = [process.execPath, builtCli(), ...args];
  return runProcess({
    file: strace ? "strace" : (node[0] ?? ""),
    args: strace ? ["-f", "-qq", "-e", "trace=%file", "-o", log, ...node] : node.slice(1),
    env,
    cwd,
    timeoutMs: 120_000,
  });
}

function underHome(traceLine: string): string[] {
  const paths = [...traceLine.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "");
  return paths.filter((p) => p.startsWith(`${home}/`) || p === home);
}

const allowed = (path: string) =>
  path === home ||
  ALLOWED.some((a) => path === join(home, a) || path.startsWith(`${join(home, a)}/`));

describe("HOME is not read", () => {
  it.skipIf(!strace && !atimes).each(COMMANDS)(
    "%s: witness %j opens nothing under HOME but the vendor cache and npm's files",
    async (where, args) => {
      const scratch = await mkdtemp(join(tmpdir(), "witness-home-run-"));
      try {
        for (const rel of MARKERS) await utimes(join(home, rel), LONG_AGO, new Date());
        const cwd = where === "repo" ? repo.dir : where === "scratch" ? scratch : WITNESS_ROOT;
        const log = join(scratch, "trace.log");
        const result = await runTraced(args, cwd, log);
        expect(result.exitCode, result.stderr).toBe(0);
        expect(`${result.stdout}${result.stderr}`).not.toContain("MARKER-");
        if (strace) {
          const touched = (await readFile(log, "utf8")).split("\n").flatMap(underHome);
          expect(touched.filter((p) => !allowed(p))).toEqual([]);
        } else {
          // Access times: the markers' atime is older than their mtime, so any read moves it (relatime).
          const read: string[] = [];
          for (const rel of MARKERS) {
            if (allowed(join(home, rel))) continue;
            if ((await stat(join(home, rel))).atimeMs > LONG_AGO.getTime() + 1000) read.push(rel);
          }
          expect(read).toEqual([]);
        }
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  );
});

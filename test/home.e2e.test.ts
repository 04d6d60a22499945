// The README's promise about HOME: witness's own commands read nothing of the operator's HOME
// but the vendor cache (~/.cache/witness) and npm's own configuration (~/.npmrc, ~/.npm), and the
// few that exist to read more say exactly what (parent-access, the pi and Gemini CLI renderings,
// orchestrate's home overlays). The built CLI runs the main commands with HOME at a directory of
// marker files; every file access under it is traced (strace) or, without strace, seen in the
// markers' access times, and held to the command's own list.
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { runProcess } from "../core/exec.js";
import { builtCli, WITNESS_ROOT } from "./support/built-cli.js";
import { protocolText } from "./support/observations.js";
import { commit, put, tempGitRepo } from "./support/witness-repo.js";

const LONG_AGO = new Date("2000-01-01T00:00:00Z");

/** What any command may read under HOME, by the promise (each path and what lies below it). */
const ALLOWED = [".cache/witness", ".npmrc", ".npm"];

// The launching session's records, which the parent-access detector exists to read.
const SESSION = "4f1e2d3c-0000-4000-8000-000000000001";
const THREAD = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";
const SESSION_FILES = [
  `.claude/projects/-work-project/${SESSION}.jsonl`,
  `.codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-${THREAD}.jsonl`,
];
const SESSION_ENV = { CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: SESSION, CODEX_THREAD_ID: THREAD };

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
  ".pi/agent/SYSTEM.md",
  ".pi/agent/APPEND_SYSTEM.md",
  ".pi/agent/AGENTS.md",
  ".pi/agent/settings.json",
  ".config/opencode/AGENTS.md",
  ".copilot/config.json",
  ".copilot/copilot-instructions.md",
  ".cline/data/settings/providers.json",
  ".cline/rules/operator.md",
  ".agents/AGENTS.md",
  ".config/kilo/AGENTS.md",
  ".kimi-code/AGENTS.md",
  ".kimi-code/config.toml",
  ...SESSION_FILES,
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
  await put(repo.dir, "nodes/pi.yaml", NODE("pi"));
  await put(repo.dir, "nodes/gemini.yaml", NODE("gemini"));
  await put(repo.dir, "workflow.yaml", WORKFLOW);
  await commit(repo.dir, "register");
});

const NODE = (adapter: string) => `id: n\nadapter: ${adapter}\nmodel: m\nprompt: hi\n`;
// One node per CLI whose rendering or home overlay reads HOME; shims stand in for the CLIs.
const WORKFLOW = `name: home-reads
defaults:
  ambientContext: workspace
nodes:
  - { id: c, adapter: codex, prompt: hi }
  - { id: g, adapter: gemini, model: m, prompt: hi, needs: [c] }
  - { id: p, adapter: pi, model: m, prompt: hi, needs: [g] }
  - { id: o, adapter: opencode, model: m, prompt: hi, needs: [p] }
`;
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await repo.cleanup();
});

const records = [
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json",
  "docs/measurements/0002-claude-code-ambient-none-claude-code-2.1.332.json",
].map((r) => join(WITNESS_ROOT, r));

/** One command: where it runs, its argv, what else it may read under HOME, its extra environment. */
interface Traced {
  where: "repo" | "witness" | "scratch";
  args: string[];
  /** Paths under HOME the command exists to read (exactly these, or below them when they end in /). */
  reads?: string[];
  env?: Record<string, string>;
  /** Shims for these CLIs go first on PATH (orchestrate launches them). */
  shims?: string[];
}

// The commands that read a user's repository, files and git; most read nothing of HOME.
const COMMANDS: [string, Traced][] = [
  ["prereg lock", { where: "repo", args: ["prereg", "lock", "docs/prereg/0001-demo.yaml"] }],
  ["prereg verify", { where: "repo", args: ["prereg", "verify"] }],
  ["adr status", { where: "repo", args: ["adr", "status"] }],
  ["adr check", { where: "repo", args: ["adr", "check"] }],
  [
    "argv",
    { where: "witness", args: ["argv", "--node", "orchestrator/examples/planned-claude.yaml"] },
  ],
  [
    "plan",
    { where: "witness", args: ["plan", "--workflow", "orchestrator/examples/workflow.yaml"] },
  ],
  ["diff", { where: "witness", args: ["diff", ...records] }],
  [
    "shim install",
    { where: "scratch", args: ["shim", "install", "--dir", "shims", "claude", "codex"] },
  ],
  ["--help", { where: "witness", args: ["--help"] }],
  ["parent-access outside a session", { where: "witness", args: ["parent-access"] }],
  [
    "parent-access in a Claude Code and a Codex session",
    {
      where: "witness",
      args: ["parent-access"],
      env: SESSION_ENV,
      reads: [".claude/projects/", ".codex/sessions/"],
    },
  ],
  [
    "argv for a pi node (operator)",
    {
      where: "repo",
      args: ["argv", "--node", "nodes/pi.yaml", "--ambient-context", "operator"],
      reads: [
        ".pi/agent/SYSTEM.md",
        ".pi/agent/APPEND_SYSTEM.md",
        ".pi/agent/AGENTS.md",
        ".pi/agent/CLAUDE.md",
      ],
    },
  ],
  [
    "argv for a Gemini CLI node (workspace)",
    {
      where: "repo",
      args: ["argv", "--node", "nodes/gemini.yaml", "--ambient-context", "workspace"],
      reads: [".gemini/settings.json"],
    },
  ],
  [
    "orchestrate run (codex, gemini, pi, opencode under workspace)",
    {
      where: "repo",
      args: ["orchestrate", "run", "workflow.yaml", "--state", "state"],
      shims: ["codex", "gemini", "pi", "opencode"],
      // The overlays list these directories and link their entries (never opened).
      reads: [
        ".codex",
        ".gemini",
        ".config/opencode",
        ".gemini/settings.json",
        ".pi/agent/SYSTEM.md",
        ".pi/agent/APPEND_SYSTEM.md",
      ],
    },
  ],
];

async function runTraced(command: Traced, cwd: string, scratch: string) {
  let path = process.env.PATH ?? "";
  if (command.shims !== undefined) {
    const bin = join(scratch, "bin");
    const install = ["shim", "install", "--dir", bin, "--stdout", "ok\n", ...command.shims];
    await runProcess({
      file: process.execPath,
      args: [builtCli(), ...install],
      env: { PATH: path },
      cwd,
      timeoutMs: 60_000,
    });
    path = `${bin}:${path}`;
  }
  const env = { PATH: path, HOME: home, LANG: "C.UTF-8", NO_COLOR: "1", ...command.env };
  const node = [process.execPath, builtCli(), ...command.args];
  const log = join(scratch, "trace.log");
  const result = await runProcess({
    file: strace ? "strace" : (node[0] ?? ""),
    args: strace ? ["-f", "-qq", "-e", "trace=%file", "-o", log, ...node] : node.slice(1),
    env,
    cwd,
    timeoutMs: 120_000,
  });
  return { result, log };
}

// The paths a traced call names under HOME; a symlink's target is named, not opened.
function underHome(traceLine: string): string[] {
  const line = traceLine.replace(/^\d+\s+/, "");
  const paths = [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "");
  const opened = line.startsWith("symlink(") ? paths.slice(1) : paths;
  return opened.filter((p) => p.startsWith(`${home}/`) || p === home);
}

const below = (path: string, rel: string) =>
  path === join(home, rel) || path.startsWith(`${join(home, rel)}/`);

const allowed = (path: string, reads: readonly string[] = []) =>
  path === home ||
  ALLOWED.some((a) => below(path, a)) ||
  reads.some((r) => (r.endsWith("/") ? below(path, r.slice(0, -1)) : path === join(home, r)));

describe("HOME is read only as the README says", () => {
  it.skipIf(!strace && !atimes).each(COMMANDS)(
    "%s: opens nothing under HOME but the vendor cache, npm's files and what it exists to read",
    async (_, command) => {
      const scratch = await mkdtemp(join(tmpdir(), "witness-home-run-"));
      try {
        for (const rel of MARKERS) await utimes(join(home, rel), LONG_AGO, new Date());
        const cwd =
          command.where === "repo"
            ? repo.dir
            : command.where === "scratch"
              ? scratch
              : WITNESS_ROOT;
        const { result, log } = await runTraced(command, cwd, scratch);
        expect(result.exitCode, result.stderr).toBe(0);
        for (const rel of MARKERS)
          if (!allowed(join(home, rel), command.reads))
            expect(`${result.stdout}${result.stderr}`).not.toContain(`MARKER-${rel}`);
        if (strace) {
          const touched = (await readFile(log, "utf8")).split("\n").flatMap(underHome);
          expect(touched.filter((p) => !allowed(p, command.reads))).toEqual([]);
        } else {
          // Access times: the markers' atime is older than their mtime, so any read moves it (relatime).
          const read: string[] = [];
          for (const rel of MARKERS) {
            if (allowed(join(home, rel), command.reads)) continue;
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

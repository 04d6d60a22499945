// Re-creates the transcript fixtures in transcripts/test/fixtures/ from real CLI runs.
// Usage: node --import tsx scripts/record-transcripts.ts [name@version …] [--only <scenario>]
//   [--bin name@version=/path/to/binary]  (a binary installed by hand, e.g. npm install --prefix)
// Each run: a temp HOME and git workspace, C's fake model server on loopback, the exact CLI
// version from the vendor cache; the session file it wrote is copied verbatim with a COMMAND.md.
import { copyFile, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

import { buildChildEnv, redactEnv } from "../core/child-env.js";
import { runProcess } from "../core/exec.js";
import { gitOut } from "../core/git.js";
import { type CliRef, parseCliRef } from "../probes/contracts/probe-spec.js";
import { type Script, scriptSchema } from "../probes/contracts/script.js";
import { driverFor } from "../probes/drivers/index.js";
import { driverResponder } from "../probes/drivers/responder.js";
import { startFakeServer } from "../probes/fake/server.js";
import { ensureCli, parseReportedVersion } from "../probes/vendor-cache.js";

const FIXTURES = join(import.meta.dirname, "..", "transcripts", "test", "fixtures");
const DEFAULT_REFS = [
  "claude-code@2.1.332",
  "claude-code@2.1.330",
  "codex@0.171.0",
  "codex@0.169.0",
];

/** One recorded situation: the argv after the binary, files to plant, the model's script. */
interface Scenario {
  name: string;
  cli: CliRef["name"];
  /** The fixture file's name. */
  file: string;
  argv: (ws: string) => string[];
  /** Files relative to the cell root (`home/…`, `ws/…`). */
  files: (ws: string, home: string) => Record<string, string>;
  script: (ws: string) => Script;
}

const shell = (...commands: string[]): Script =>
  scriptSchema.parse({ turns: commands.map((c) => ({ calls: [{ shell: c }] })), final: "done" });

const SCENARIOS: readonly Scenario[] = [
  {
    name: "default",
    cli: "claude-code",
    file: "session.jsonl",
    argv: () => ["-p", "touch one file, then make one directory", "--output-format", "json"],
    files: (ws) => ({
      "home/.claude/CLAUDE.md": "User memory: WITNESS_MARKER_USER_MEMORY\n",
      "ws/CLAUDE.md": "Project memory: WITNESS_MARKER_PROJECT_MEMORY\n",
      // A user-scope allow rule accepts `touch`; `mkdir` has no rule and is rejected under -p.
      "home/.claude/settings.json": JSON.stringify({ permissions: { allow: ["Bash(touch:*)"] } }),
      "home/.claude.json": JSON.stringify({ projects: { [ws]: { hasTrustDialogAccepted: true } } }),
    }),
    // Both calls in one turn: one assistant message, so the fake model's turn count stays simple.
    script: (ws) =>
      scriptSchema.parse({
        turns: [{ calls: [{ shell: `touch ${ws}/ACCEPTED` }, { shell: `mkdir ${ws}/REJECTED` }] }],
      }),
  },
  {
    name: "bypass",
    cli: "claude-code",
    file: "session.jsonl",
    argv: () => [
      "-p",
      "touch one file",
      "--output-format",
      "json",
      "--permission-mode",
      "bypassPermissions",
    ],
    files: () => ({}),
    script: (ws) => shell(`touch ${ws}/BYPASS_RAN`),
  },
  {
    name: "read-only",
    cli: "codex",
    file: "rollout.jsonl",
    argv: () => ["exec", "-s", "read-only", "touch one file"],
    files: () => ({}),
    script: (ws) => shell(`touch ${ws}/READ_ONLY_RAN`),
  },
  {
    name: "workspace-write",
    cli: "codex",
    file: "rollout.jsonl",
    argv: () => ["exec", "-s", "workspace-write", "touch one file"],
    files: () => ({}),
    script: (ws) => shell(`touch ${ws}/WORKSPACE_WRITE_RAN`),
  },
  {
    name: "danger-full-access",
    cli: "codex",
    file: "rollout.jsonl",
    argv: () => ["exec", "-s", "danger-full-access", "touch one file"],
    files: () => ({}),
    script: (ws) => shell(`touch ${ws}/FULL_ACCESS_RAN`),
  },
];

/** The binary to run: `--bin name@version=/path` when given (checked by --version), else the cache. */
async function resolveBin(
  ref: CliRef,
  given: string | undefined,
): Promise<{ bin: string; version: string }> {
  if (given === undefined) return ensureCli(ref);
  // A throwaway HOME: the CLI must not touch the operator's own configuration.
  const home = await mkdtemp(join(tmpdir(), "witness-v-"));
  const env = buildChildEnv({ parent: process.env, set: { HOME: home } });
  const result = await runProcess({ file: given, args: ["--version"], env, cwd: tmpdir() });
  await rm(home, { recursive: true, force: true });
  const version = parseReportedVersion(result.stdout);
  if (version !== ref.version)
    throw new Error(`${given} reports ${version ?? "no version"}, not ${ref.version}`);
  return { bin: given, version };
}

async function record(ref: CliRef, scenario: Scenario, given: string | undefined): Promise<string> {
  const { bin, version } = await resolveBin(ref, given);
  const root = await realpath(await mkdtemp(join(tmpdir(), "witness-rec-")));
  const home = join(root, "home");
  const ws = join(root, "ws");
  const codexHome = join(home, ".codex");
  const script = scenario.script(ws);
  const driver = driverFor(scenario.cli);
  // Side routes and helper calls as a probe answers them, so older versions run too.
  const server = await startFakeServer(driverResponder(driver, script, version));
  try {
    for (const dir of [home, ws, codexHome, join(root, "tmp")])
      await mkdir(dir, { recursive: true });
    for (const [path, text] of Object.entries(scenario.files(ws, home))) {
      await mkdir(join(root, path, ".."), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const cellEnv = {
      HOME: home,
      TMPDIR: join(root, "tmp"),
      XDG_CONFIG_HOME: join(home, ".config"),
    };
    const gitEnv = buildChildEnv({ parent: process.env, set: cellEnv });
    await gitOut(["init", "-q", "."], { cwd: ws, env: gitEnv });
    const launched = driver.launch({ argv: scenario.argv(ws), baseUrl: server.url, version });
    const env = buildChildEnv({
      parent: process.env,
      set: { ...cellEnv, CODEX_HOME: codexHome, ...launched.env },
    });
    const result = await runProcess({
      file: bin,
      args: launched.args,
      env,
      cwd: ws,
      timeoutMs: 120_000,
    });
    const session = (await driver.readTranscript(env)).path;
    if (session === null) {
      throw new Error(
        `${ref.name}@${version} ${scenario.name}: no session file (exit ${result.exitCode}):\n${result.stderr}`,
      );
    }
    const out = join(FIXTURES, `${ref.name}-${version}-${scenario.name}`);
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    await copyFile(session, join(out, scenario.file));
    const meta = {
      cli: `${ref.name}@${version}`,
      scenario: scenario.name,
      exitCode: result.exitCode,
      cwd: ws,
      home,
      /** Where the CLI wrote the file, relative to HOME. */
      sessionPath: relative(home, session),
      requests: server.requests.length,
    };
    await writeFile(join(out, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
    await writeFile(
      join(out, "COMMAND.md"),
      commandText(ref, version, scenario, bin, launched.args, env, ws, result.exitCode),
    );
    return `${out} (exit ${result.exitCode}, ${server.requests.length} requests)`;
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

function commandText(
  ref: CliRef,
  version: string,
  scenario: Scenario,
  bin: string,
  args: string[],
  env: Record<string, string>,
  ws: string,
  exitCode: number | null,
): string {
  const vars = Object.entries(redactEnv(env)).filter(([name]) => name !== "PATH");
  return [
    `# ${ref.name}@${version}, scenario \`${scenario.name}\``,
    "",
    "Re-create with:",
    "",
    "```",
    `node --import tsx scripts/record-transcripts.ts ${ref.name}@${version} --only ${scenario.name}` +
      " [--bin <name@version>=<binary>]",
    "```",
    "",
    `The run (cwd \`${ws}\`, exit ${exitCode}; the port is the fake server's ephemeral one):`,
    "",
    "```",
    `${vars.map(([n, v]) => `${n}=${v}`).join(" \\\n")} \\\n${bin} ${args.map((a) => JSON.stringify(a)).join(" ")}`,
    "```",
    "",
    "Files planted before the run (relative to the temporary root):",
    "",
    "```json",
    JSON.stringify(scenario.files(ws, ""), null, 2),
    "```",
    "",
    "The fake model's script:",
    "",
    "```json",
    JSON.stringify(scenario.script(ws), null, 2),
    "```",
    "",
  ].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const valueOf = (flag: string) => argv.flatMap((a, i) => (argv[i - 1] === flag ? [a] : []));
  const only = valueOf("--only")[0];
  // `--bin claude-code@2.1.330=/tmp/x/node_modules/.bin/claude`: a binary installed by hand.
  const bins = new Map(
    valueOf("--bin").map((b) => [b.slice(0, b.indexOf("=")), b.slice(b.indexOf("=") + 1)]),
  );
  const refs = argv.filter(
    (a, i) => !a.startsWith("--") && !["--only", "--bin"].includes(argv[i - 1] ?? ""),
  );
  for (const text of refs.length > 0 ? refs : DEFAULT_REFS) {
    const ref = parseCliRef(text);
    for (const scenario of SCENARIOS.filter((s) => s.cli === ref.name)) {
      if (only !== undefined && scenario.name !== only) continue;
      process.stdout.write(`recorded ${await record(ref, scenario, bins.get(text))}\n`);
    }
  }
}

await main(process.argv.slice(2));

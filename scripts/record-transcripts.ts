// Re-records the transcript fixtures in transcripts/test/fixtures/ from real CLI runs.
// Usage: node --import tsx scripts/record-transcripts.ts [name@version …] [--only <scenario>]
// Each run is one runProbe (fresh cell, fake model, netns where it can) kept on disk: the cell is
// the ground truth. The session file the CLI wrote is copied verbatim, with its sidechains, a
// truth.json built from the cell (scripts/transcript-truth.ts), a meta.json and a COMMAND.md.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";

import { z } from "zod";

import { parseCliRef } from "../probes/contracts/probe-spec.js";
import { driverFor } from "../probes/drivers/index.js";
import { capturedRequestSchema } from "../probes/fake/server.js";
import { releaseWarmSlot } from "../probes/isolation/netns.js";
import { runProbe } from "../probes/run-probe.js";
import { isClaudeSidechainName } from "../transcripts/locate.js";
import { atLeast, type Scenario, scenariosFor, specOf } from "./transcript-scenarios.js";
import { buildTruth } from "./transcript-truth.js";

const outputSchema = z.object({ stdout: z.string(), stderr: z.string() });

const FIXTURES = join(import.meta.dirname, "..", "transcripts", "test", "fixtures");

/**
 * The versions the fixtures cover: a 1.0.x, a 2.0.x and two 2.1.x; a ≤ 0.60, a 0.15x and a 0.17x;
 * Copilot's two wordings of a refusal (1.0.60, 1.0.102); Kilo's two session tables (7.0.33, 7.7.7);
 * Kimi's two wire protocols (0.20.0, 2.1.0); Cline 3.x's messages.json (3.0.65).
 */
const DEFAULT_REFS = [
  "claude-code@1.0.128",
  "claude-code@2.0.77",
  "claude-code@2.1.282",
  "claude-code@2.1.332",
  "codex@0.58.0",
  "codex@0.156.1",
  "codex@0.171.0",
  "copilot@1.0.60",
  "copilot@1.0.102",
  "kilo@7.0.33",
  "kilo@7.7.7",
  "kimi@0.20.0",
  "kimi@2.1.0",
  "cline@3.0.65",
];

async function sidechainsOf(session: string): Promise<string[]> {
  if (!session.includes("/.claude/")) return [];
  const dir = dirname(session);
  const beside = (await readdir(dir)).filter(isClaudeSidechainName).map((n) => join(dir, n));
  const nested = join(dir, basename(session, ".jsonl"), "subagents");
  const below = (await readdir(nested).catch(() => [])).map((n) => join(nested, n));
  return [...beside, ...below].sort();
}

async function record(ref: string, scenario: Scenario): Promise<string> {
  const { name, version } = parseCliRef(ref);
  let root = "";
  const observation = await runProbe(specOf(scenario, version), {
    keep: true,
    onCellKept: (dir) => (root = dir),
  });
  try {
    const where = `${ref} ${scenario.name}`;
    if (observation.faults.length > 0)
      throw new Error(`${where}: ${observation.faults.join("; ")}`);
    if (!observation.transcriptFile) throw new Error(`${where}: the CLI wrote no transcript`);
    const requests = capturedRequestSchema
      .array()
      .parse(JSON.parse(await readFile(join(root, "requests.json"), "utf8")));
    const output = outputSchema.parse(
      JSON.parse(await readFile(join(root, "output.json"), "utf8")),
    );
    const wire = driverFor(name).wire;
    const truth = buildTruth({
      observation,
      output,
      requests,
      wire,
      scenario: scenario.name,
      finalText: scenario.script.final,
    });
    const home = observation.env.HOME ?? join(root, "home");
    const session = join(root, observation.transcriptFile);
    const sidechains = await sidechainsOf(session);
    const out = join(FIXTURES, `${name}-${observation.cli.version}-${scenario.name}`);
    await rm(out, { recursive: true, force: true });
    await mkdir(join(out, "sidechains"), { recursive: true });
    const fixtureName = driverFor(name).sessionFixture?.name ?? basename(session);
    await copyFile(session, join(out, fixtureName));
    // The files that belong to it (Kilo's rows are usually only in its -wal).
    for (const suffix of driverFor(name).sessionFixture?.companions ?? [])
      await copyFile(`${session}${suffix}`, join(out, `${fixtureName}${suffix}`)).catch(
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        },
      );
    for (const side of sidechains) await copyFile(side, join(out, "sidechains", basename(side)));
    if (sidechains.length === 0) await rm(join(out, "sidechains"), { recursive: true });
    const meta = {
      cli: `${name}@${observation.cli.version}`,
      scenario: scenario.name,
      exitCode: observation.exitCode,
      cwd: observation.cwd,
      home,
      sessionPath: relative(home, session),
      sidechainPaths: sidechains.map((side) => relative(home, side)),
      requests: observation.requestCount,
    };
    await writeFile(join(out, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
    await writeFile(join(out, "truth.json"), `${JSON.stringify(truth, null, 2)}\n`);
    await writeFile(
      join(out, "COMMAND.md"),
      commandText(ref, scenario, observation.argv, observation.env, observation.cwd),
    );
    return `${out} (exit ${observation.exitCode}, ${observation.requestCount} requests, ${truth.calls.length} calls, ${sidechains.length} sidechains)`;
  } finally {
    if (root !== "") await rm(root, { recursive: true, force: true });
  }
}

function commandText(
  ref: string,
  scenario: Scenario,
  argv: readonly string[],
  env: Record<string, string>,
  cwd: string,
): string {
  const vars = Object.entries(env).filter(([key]) => key !== "PATH");
  const [bin, ...args] = argv;
  return [
    `# ${ref}, scenario \`${scenario.name}\``,
    "",
    "Re-create with:",
    "",
    "```",
    `node --import tsx scripts/record-transcripts.ts ${ref} --only ${scenario.name}`,
    "```",
    "",
    `The run, as runProbe spawned it (cwd \`${cwd}\`; the port is the fake server's):`,
    "",
    "```",
    `${vars.map(([k, v]) => `${k}=${v}`).join(" \\\n")} \\\n${bin ?? ""} ${args.map((a) => JSON.stringify(a)).join(" ")}`,
    "```",
    "",
    "The probe's fixture and the fake model's script (`{{sentinel:X}}` is a path the cell checks):",
    "",
    "```json",
    JSON.stringify({ fixture: scenario.fixture, script: scenario.script }, null, 2),
    "```",
    "",
    "`truth.json` is built from the cell (sentinels, the fake server's log, the argv), not from the transcript.",
    "",
  ].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const only = argv[argv.indexOf("--only") + 1];
  const refs = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--only");
  try {
    for (const ref of refs.length > 0 ? refs : DEFAULT_REFS) {
      for (const scenario of scenariosFor(parseCliRef(ref).name)) {
        if (argv.includes("--only") && scenario.name !== only) continue;
        if (scenario.from !== undefined && !atLeast(parseCliRef(ref).version, scenario.from))
          continue;
        process.stdout.write(`recorded ${await record(ref, scenario)}\n`);
      }
    }
  } finally {
    await releaseWarmSlot();
  }
}

await main(process.argv.slice(2));

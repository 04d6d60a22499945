// Re-creates the pi and opencode session fixtures in transcripts/test/fixtures/ from real runs
// through runProbe (the driver's own launch, netns where available, the fake model).
// Usage: node --import tsx scripts/record-probe-sessions.ts [--only <fixture dir name>]
// Each run keeps its cell, copies the session file(s) the CLI wrote, and writes COMMAND.md and
// meta.json beside them; the cell is removed afterwards.
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";

import { PINNED } from "../clis/pinned.js";
import type { ProbeSpec } from "../probes/contracts/probe-spec.js";
import { driverFor } from "../probes/drivers/index.js";
import { releaseWarmSlot } from "../probes/isolation/netns.js";
import { runProbe } from "../probes/run-probe.js";

const FIXTURES = join(import.meta.dirname, "..", "transcripts", "test", "fixtures");

interface Scenario {
  /** The fixture folder's name. */
  dir: string;
  spec: ProbeSpec;
}

const base = { fixture: { workspace: "outside-home", trust: true, files: [] }, timeoutMs: 90_000 };
// The same four calls on the pinned pi and on its new package's 1.6.0 (a system message in the
// session, another write wording).
const piTools = (version: string): Scenario => ({
  dir: `pi-${version}-tools`,
  spec: {
    ...base,
    cli: { name: "pi", version },
    launch: { argv: ["-p"], stdin: "Run the probe." },
    script: {
      turns: [
        {
          calls: [
            { shell: "touch {{sentinel:RAN}}" },
            { tool: "write", input: { path: "{{sentinel:WROTE}}", content: "hello\n" } },
            { shell: "echo out-line; echo err-line >&2; exit 3" },
            { tool: "no_such_tool", input: {} },
          ],
        },
      ],
      final: "done",
      classifier: "allow",
    },
  } as ProbeSpec,
});
const SCENARIOS: Scenario[] = [
  piTools(PINNED.pi.version),
  piTools("1.6.0"),
  {
    dir: `opencode-${PINNED.opencode.version}-default`,
    spec: {
      ...base,
      fixture: { ...base.fixture, sentinelsIn: { WSRAN: "workspace" } },
      cli: PINNED.opencode,
      launch: { argv: ["run", "--title", "witness"], stdin: "Run the probe." },
      script: {
        turns: [
          { calls: [{ shell: "touch {{sentinel:WSRAN}}; echo hi; exit 4" }] },
          { calls: [{ tool: "write", input: { filePath: "{{sentinel:WROTE}}", content: "x" } }] },
        ],
        final: "done",
        classifier: "allow",
      },
    } as ProbeSpec,
  },
  {
    dir: `opencode-${PINNED.opencode.version}-auto`,
    spec: {
      ...base,
      cli: PINNED.opencode,
      launch: { argv: ["run", "--title", "witness", "--auto"], stdin: "Run the probe." },
      script: {
        turns: [
          {
            calls: [
              { shell: "touch {{sentinel:RAN}}" },
              { tool: "write", input: { filePath: "{{sentinel:WROTE}}", content: "x" } },
              { tool: "no_such_tool", input: {} },
            ],
          },
        ],
        final: "done",
        classifier: "allow",
      },
    } as ProbeSpec,
  },
];

/** The session files a kept cell holds for a CLI, relative to the cell's HOME, each with the name its copy gets. */
function sessionFiles(
  cli: ProbeSpec["cli"]["name"],
  home: string,
): Promise<{ file: string; name: string }[]> {
  const env = { HOME: home };
  const driver = driverFor(cli);
  return driver.readTranscript(env, { markers: [], stdout: "", stderr: "" }).then((facts) => {
    if (facts.path === null) throw new Error(`${cli} wrote no session under ${home}`);
    const path = relative(home, facts.path);
    const name = driver.sessionFixture?.name ?? basename(path);
    const companions = driver.sessionFixture?.companions ?? [];
    return [
      { file: path, name },
      ...companions.map((suffix) => ({ file: `${path}${suffix}`, name: `${name}${suffix}` })),
    ];
  });
}

async function record(scenario: Scenario): Promise<void> {
  let kept = "";
  const o = await runProbe(scenario.spec, { keep: true, onCellKept: (dir) => (kept = dir) });
  try {
    if (o.faults.length > 0) throw new Error(`${scenario.dir}: ${o.faults.join("; ")}`);
    const home = join(kept, "home");
    const out = join(FIXTURES, scenario.dir);
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    const files = await sessionFiles(scenario.spec.cli.name, home);
    const copied: string[] = [];
    for (const { file, name } of files) {
      try {
        await copyFile(join(home, file), join(out, name));
        copied.push(name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    const meta = {
      cli: `${o.cli.name}@${o.cli.version}`,
      scenario: scenario.dir.slice(scenario.dir.lastIndexOf("-") + 1),
      exitCode: o.exitCode,
      cwd: o.cwd,
      home,
      sessionPath: files[0],
      files: copied,
      requests: o.requestCount,
      toolCalls: o.toolCalls.map((c) => ({ id: c.id, name: c.name, outcome: c.outcome })),
      sentinels: o.sentinels.map((s) => ({ name: s.name, created: s.created })),
    };
    await writeFile(join(out, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
    const requests = await readFile(join(kept, "requests.json"), "utf8");
    const command = [
      `# ${meta.cli}, fixture \`${scenario.dir}\``,
      "",
      "Re-create with `node --import tsx scripts/record-probe-sessions.ts --only " +
        `${scenario.dir}\` (a real run through runProbe, ${o.isolation}).`,
      "",
      "The probe spec:",
      "",
      "```json",
      JSON.stringify(scenario.spec, null, 2),
      "```",
      "",
      `The spawn (cwd \`${o.cwd}\`, exit ${String(o.exitCode)}, ${o.requestCount} requests):`,
      "",
      "```",
      ...Object.entries(o.env).map(([k, v]) => `${k}=${v} \\`),
      o.argv.map((a) => JSON.stringify(a)).join(" "),
      "```",
      "",
      `stdin: ${JSON.stringify(o.stdin ?? "")}`,
      "",
      `Requests the fake answered: ${(JSON.parse(requests) as { answer: string }[]).map((r) => r.answer).join(", ")}.`,
      "",
    ];
    await writeFile(join(out, "COMMAND.md"), command.join("\n"));
    process.stdout.write(`${scenario.dir}: ${copied.join(", ")}\n`);
  } finally {
    await rm(kept, { recursive: true, force: true });
  }
}

const only = process.argv.indexOf("--only");
const wanted = only === -1 ? null : process.argv[only + 1];
try {
  for (const scenario of SCENARIOS.filter((s) => wanted === null || s.dir === wanted))
    await record(scenario);
} finally {
  await releaseWarmSlot();
}

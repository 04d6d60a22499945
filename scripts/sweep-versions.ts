// Sweeps published CLI versions with one probe each (a marker fixture, a text reply) and writes
// docs/versions/side-traffic.md: per version, the side requests and helper calls seen, the faults,
// and whether the spawn was evidence (a verdict could be reached on it).
// Usage: npm run build && node --import tsx scripts/sweep-versions.ts [name@version …]
import { join } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";
import { readInput } from "../core/read-input.js";
import { type Fixture, fixtureSchema } from "../probes/contracts/fixture.js";
import { type CliRef, parseCliRef, probeSpecSchema } from "../probes/contracts/probe-spec.js";
import { releaseWarmSlot } from "../probes/isolation/netns.js";
import { runProbe } from "../probes/run-probe.js";
import { installAll } from "../probes/vendor-registry.js";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "docs", "versions", "side-traffic.md");
const DEFAULT = [
  ...["1.0.128", "2.0.77", "2.1.0", "2.1.81", "2.1.85", "2.1.100", "2.1.200", "2.1.220"],
  ...["2.1.282", "2.1.286", "2.1.290", "2.1.332"],
].map((v) => `claude-code@${v}`);
const CODEX = ["0.58.0", "0.60.1", "0.96.0", "0.156.1", "0.169.0", "0.171.0"].map(
  (v) => `codex@${v}`,
);

// Each swept CLI's prompt argv: Codex takes it after `exec`, Claude Code after -p.
const ARGV: Partial<Record<CliRef["name"], string[]>> = {
  "claude-code": ["-p", "Reply with the word done."],
  codex: ["exec", "Reply with the word done."],
};
const argv = (name: CliRef["name"]) => ARGV[name] ?? ["-p", "Reply with the word done."];
const FIXTURE: Partial<Record<CliRef["name"], string>> = {
  "claude-code": "probes/examples/claude-md-sources.fixture.yaml",
  codex: "probes/examples/agents-md.fixture.yaml",
};

async function row(ref: CliRef): Promise<string> {
  const fixturePath = FIXTURE[ref.name];
  const fixture: Fixture | undefined =
    fixturePath === undefined
      ? undefined
      : await readInput(fixtureSchema, join(ROOT, fixturePath), "fixture");
  const o = await runProbe(
    probeSpecSchema.parse({
      cli: ref,
      fixture,
      launch: { argv: argv(ref.name) },
      timeoutMs: 120_000,
    }),
  );
  const side = o.sideRequests
    .map((s) => `\`${s.method} ${s.path}\` ${s.status} ×${s.count}`)
    .join(", ");
  const helpers = o.helperCalls.map((h) => `${h.kind} ×${h.count}`).join(", ");
  const markers = o.markers
    .filter((m) => m.seenIn.length > 0)
    .map((m) => m.name)
    .join(", ");
  const verdict = o.faults.length === 0 ? "yes" : `no: ${o.faults.join("; ")}`;
  return `| ${ref.name} | ${ref.version} | ${side || "none"} | ${helpers || "none"} | ${markers || "none"} | ${o.exitCode ?? "-"} | ${verdict} |`;
}

const given = process.argv.slice(2);
const refs = (given.length > 0 ? given : [...DEFAULT, ...CODEX]).map((t) => parseCliRef(t));
await installAll(refs);
const rows: string[] = [];
try {
  for (const ref of refs) {
    rows.push(await row(ref));
    process.stderr.write(`${rows.at(-1) ?? ""}\n`);
  }
} finally {
  await releaseWarmSlot();
}
const text = `# Side traffic across published versions

One \`witness probe\` spawn per version: the marker fixture of \`probes/examples/\`
(\`claude-md-sources.fixture.yaml\` for Claude Code, \`agents-md.fixture.yaml\` for Codex), a text
reply, \`CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1\` as always. "Evidence" says whether the spawn
had no fault, so a verdict could be reached on it. Side requests are answered by the driver's side
routes (200) or, undeclared, 404, and are never a fault; helper calls are the CLI's own calls on
the model route, answered with text.

Regenerate: \`npm run build && node --import tsx scripts/sweep-versions.ts [name@version …]\`
(${new Date().toISOString().slice(0, 10)}, ${process.platform}, Node ${process.version}).

| CLI | version | side requests (status ×count) | helper calls | markers seen | exit | evidence |
|---|---|---|---|---|---|---|
${rows.join("\n")}
`;
await writeFileAtomic(OUT, text);
process.stdout.write(`${OUT}\n`);

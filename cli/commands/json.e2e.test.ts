// Every command that reports has --json: one JSON document on stdout, nothing else there. The
// vendor CLI is a stand-in from the fake npm (it prints its version and nothing else), so the
// spawns fault and the arms are inconclusive: enough to see every document and report.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { lockProtocol } from "../../prereg/lock.js";
import { protocolText } from "../../test/support/observations.js";
import {
  commit,
  put,
  putAdr,
  tempGitRepo,
  WITNESS_ROOT,
  witnessWith,
} from "../../test/support/witness-repo.js";

const FAKE_NPM = join(WITNESS_ROOT, "probes", "test", "fixtures", "fake-npm");
let repo: { dir: string; cleanup: () => Promise<void> };
let env: Record<string, string>;

beforeAll(async () => {
  repo = await tempGitRepo();
  await putAdr(repo.dir);
  await put(repo.dir, "docs/prereg/0001-demo.yaml", protocolText());
  await commit(repo.dir, "register");
  await lockProtocol("docs/prereg/0001-demo.yaml", { cwd: repo.dir });
  await commit(repo.dir, "lock");
  const cache = join(repo.dir, ".cache");
  env = { PATH: `${FAKE_NPM}:${process.env.PATH ?? ""}`, WITNESS_CACHE: cache };
}, 60_000);
afterAll(() => repo.cleanup());

async function json(args: string[], extra: Record<string, string> = {}) {
  const result = await witnessWith({
    cwd: repo.dir,
    args: args.includes("--")
      ? [...args.slice(0, args.indexOf("--")), "--json", ...args.slice(args.indexOf("--"))]
      : [...args, "--json"],
    env: { ...env, ...extra },
  });
  let doc: unknown;
  try {
    doc = JSON.parse(result.stdout);
  } catch {
    throw new Error(
      `witness ${args.join(" ")} --json printed no JSON document:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { code: result.exitCode, doc: doc as Record<string, unknown>, stderr: result.stderr };
}

describe("--json on every reporting command (built CLI)", () => {
  it("run, its JUnit, its annotations, then diff, drift, merge of its shards", async () => {
    const junit = join(repo.dir, "reports", "run.xml");
    await mkdir(join(repo.dir, "reports"));
    const first = await json(
      ["run", "--all", "--spawns", "1", "--out", "records", "--junit", junit],
      { GITHUB_ACTIONS: "true" },
    );
    expect(first.code).toBe(1);
    expect(first.doc.summary).toEqual({ arms: 1, confirmed: 0, refuted: 0, inconclusive: 1 });
    // Under --json the CI's annotations go to stderr: stdout holds the document alone.
    expect(first.stderr).toMatch(
      /^::warning file=docs\/prereg\/0001-demo\.yaml,title=0001 only on claude-code@2\.1\.332%3A inconclusive::/m,
    );
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain('<testcase name="only" classname="0001-demo.claude-code@2.1.332"');
    expect(xml).toContain(
      '<error message="inconclusive: spawn 1: infrastructure fault: no-request',
    );

    const runs = first.doc.runs as { record: { json: string } }[];
    const a = runs[0]?.record.json ?? "";
    const second = await json(["run", "--all", "--spawns", "1", "--out", "records"]);
    const b = (second.doc.runs as { record: { json: string } }[])[0]?.record.json ?? "";
    const diff = await json(["diff", a, b]);
    expect([diff.code, diff.doc.verdictChanged]).toEqual([0, false]);
    const drift = await json(["drift", "--dir", "records"]);
    expect((drift.doc as unknown as { cli: string }[])[0]?.cli).toBe("claude-code");

    for (const i of [1, 2]) {
      const shard = await json([
        "run",
        "--all",
        "--spawns",
        "1",
        "--shard",
        `${i}/2`,
        "--out",
        `shard-${i}`,
        "--run-id",
        "r",
      ]);
      expect(shard.code).toBe(0);
      expect((shard.doc.shard as { spawns: number }).spawns).toBe(i === 1 ? 1 : 0);
    }
    const merged = await json(["merge", "shard-1", "shard-2", "--out", "merged"]);
    expect(merged.code).toBe(1);
    expect(merged.doc.summary).toEqual(first.doc.summary);
  }, 240_000);

  it("run without --json: one line per finished arm and the closing summary line", async () => {
    const result = await witnessWith({
      cwd: repo.dir,
      args: ["run", "--all", "--spawns", "1", "--out", "plain"],
      env,
    });
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(
      /^0001 demo on claude-code@2\.1\.332 only: inconclusive \(spawn 1: infrastructure fault: /,
    );
    expect(lines.at(-2)).toBe("1 arms: 0 confirmed, 0 refuted, 1 inconclusive");
  }, 120_000);

  it("run --dry-run, probe and bisect", async () => {
    const dry = await json(["run", "--all", "--dry-run"]);
    const spawns = dry.doc.spawns as { arm: string; args: string[]; files: { path: string }[] }[];
    expect(spawns.map((s) => s.arm)).toEqual(["only", "only"]);
    expect(spawns[0]?.args.slice(0, 2)).toEqual(["-p", "hi"]);
    expect(spawns[0]?.files.map((f) => f.path)).toEqual([
      "<cell>/outside/grand/parent/ws/CLAUDE.md",
      "<cell>/home/.claude/CLAUDE.md",
    ]);
    const probe = await json(["probe", "--cli", "claude-code@2.1.332", "--", "-p", "hi"]);
    expect(probe.code).toBe(1);
    expect((probe.doc.faults as string[])[0]).toMatch(/^no-request/);
    const bisect = await json([
      "bisect",
      "docs/prereg/0001-demo.yaml",
      "--cli",
      "claude-code@2.1.282..2.1.300",
      "--spawns",
      "1",
      "--out",
      "bisect",
    ]);
    expect([bisect.code, bisect.doc.flip]).toEqual([0, null]);
  }, 240_000);

  it("adr check (and its JUnit), adr status, prereg verify, lock and new", async () => {
    const junit = join(repo.dir, "adr.xml");
    const check = await json(["adr", "check", "--junit", junit]);
    expect([check.code, check.doc.ok]).toEqual([0, true]);
    expect((check.doc.adrs as { adr: { id: string } }[]).map((r) => r.adr.id)).toEqual(["0001"]);
    expect(await readFile(junit, "utf8")).toContain(
      '<testcase name="0001 Demo" classname="witness.adr" file="docs/adr/0001-demo.md"/>',
    );
    const status = await json(["adr", "status"]);
    expect(status.doc.ok).toBe(true);
    const verify = await json(["prereg", "verify"]);
    expect((verify.doc.protocols as { state: string }[]).map((p) => p.state)).toEqual(["locked"]);
    const lock = await json(["prereg", "lock", "docs/prereg/0001-demo.yaml"]);
    expect(lock.doc.action).toBe("unchanged");
    const made = await json(["prereg", "new", "next", "--adr", "1"]);
    expect(made.doc.file).toBe(join(repo.dir, "docs", "prereg", "0002-next.yaml"));
  }, 120_000);

  it("vendors add, list and path; shim install, log and assert; plan; parent-access; orchestrate run", async () => {
    const add = await json(["vendors", "add", "codex@0.171.0"]);
    expect((add.doc as unknown as { version: string }[])[0]?.version).toBe("0.171.0");
    const list = await json(["vendors", "list"]);
    expect((list.doc as unknown as { name: string }[]).map((e) => e.name)).toContain("codex");
    const path = await json(["vendors", "path", "codex@0.171.0"]);
    expect(path.doc.bin).toMatch(/codex@0\.171\.0\/node_modules\/\.bin\/codex$/);
    const shims = join(repo.dir, "shims");
    const install = await json(["shim", "install", "--dir", shims, "claude"]);
    expect((install.doc.shims as { name: string }[]).map((s) => s.name)).toEqual(["claude"]);
    const log = await json(["shim", "log", join(shims, "shims.jsonl")], {});
    expect(log.doc).toEqual({ records: [], problems: [] });
    const assert = await json(["shim", "assert", join(shims, "shims.jsonl"), "claude"]);
    expect(assert.code).toBe(1);
    expect(assert.doc.pass).toBe(false);
    await writeFile(
      join(repo.dir, "wf.yaml"),
      "name: one\nnodes:\n  - { id: review, adapter: claude-code, prompt: hi }\n",
    );
    const plan = await json(["plan", "--workflow", "wf.yaml"]);
    expect(JSON.stringify(plan.doc)).toContain("review");
    const parent = await json(["parent-access"]);
    expect(Object.keys(parent.doc).length).toBeGreaterThan(0);
    const run = await json(["orchestrate", "run", "wf.yaml", "--state", "state"], {
      PATH: "/usr/bin:/bin",
    });
    expect(run.code).toBe(1);
    expect(run.doc.status).toBe("failed");
    expect(run.stderr).toContain(
      "witness: review: failed (claude: ENOENT: not found (is it installed and on PATH?))",
    );
  }, 120_000);
});

// The shipped workflow, run here as GitHub would run it: every job in the order its `needs` give,
// a matrix job once per value, each `run:` step through bash -e in a clone of this repository.
// What GitHub does that this machine cannot (the checkout, node set-up, caches, artifacts) is the
// `uses:` steps; the steps that install, build and check the code are the test suite itself, so
// they are named here and not run again. The one deliberate change: `run --all` runs a few
// protocols, one of them a claim the CLI refutes (0011), so the merge must pass on reproduction.
import { symlink } from "node:fs/promises";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

import { PINNED } from "../clis/pinned.js";
import { runProcess } from "../core/exec.js";
import { builtCli } from "./support/built-cli.js";
import { liveClis } from "./support/live-clis.js";
import { git, WITNESS_ROOT } from "./support/witness-repo.js";

const WORKFLOW = join(WITNESS_ROOT, ".github", "workflows", "witness.yml");

/** Run instead of the whole shipped set: a refuted arm the record keeps, two confirmed ones. */
const SUBSET = ["docs/prereg/0011-claude-code-nested-worktree.yaml"];

/** Reproduced instead of every protocol the Accepted ADRs require: one of Claude Code's. */
const REPRODUCE_SUBSET = ["0001"];

/** The steps the test suite stands for (the CI's install, build and checks of the code). */
const COVERED_BY_THE_SUITE = [
  "npm ci --no-audit --no-fund",
  "npm run build",
  "npm run typecheck",
  "npm run lint",
  "npm run test:unit",
];

interface Step {
  uses?: string;
  run?: string;
}
interface Job {
  needs?: string | string[];
  strategy?: { matrix?: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

/** The jobs in an order their `needs` allow (GitHub may run independent ones at once). */
function jobOrder(jobs: Record<string, Job>): string[] {
  const order: string[] = [];
  const visit = (name: string) => {
    if (order.includes(name)) return;
    const needs = jobs[name]?.needs ?? [];
    for (const n of Array.isArray(needs) ? needs : [needs]) visit(n);
    order.push(name);
  };
  for (const name of Object.keys(jobs)) visit(name);
  return order;
}

/** One command as it would run: `${{ … }}` expressions filled in from `context`. */
function expand(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = context[name];
    if (value === undefined) throw new Error(`${WORKFLOW}: no value for \${{ ${name} }}`);
    return value;
  });
}

const clis = liveClis([PINNED["claude-code"]], "workflow");
let clone = "";

beforeAll(async () => {
  builtCli(); // the steps' `node dist/cli/main.js` is this build, linked into the clone
  await clis.install();
  const dir = await mkdtemp(join(tmpdir(), "witness-workflow-"));
  clone = join(dir, "repo");
  // The checkout's fetch-depth 0: the whole history, which lock and gate checks read.
  await git(dir, "clone", "-q", WITNESS_ROOT, clone);
  await symlink(join(WITNESS_ROOT, "dist"), join(clone, "dist"));
}, 600_000);
afterAll(() =>
  clone === "" ? undefined : rm(join(clone, ".."), { recursive: true, force: true }),
);

describe(".github/workflows/witness.yml", () => {
  it("live: its steps run in order on a subset of the shipped protocols and pass, the ADR gate among them", async (ctx) => {
    clis.need(ctx, "claude-code");
    const workflow = parse(await readFile(WORKFLOW, "utf8")) as Workflow;
    const context = { "github.workspace": clone, "github.run_id": "4242" };
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(workflow.env ?? {}))
      env[name] = expand(String(value), context);
    // The pinned CLIs are already in this machine's vendor cache; the workflow caches its own.
    env.WITNESS_CACHE = clis.cacheDir;
    const ran: string[] = [];
    let subsetRuns = 0;
    let reproduceRuns = 0;
    for (const name of jobOrder(workflow.jobs)) {
      const job = workflow.jobs[name] as Job;
      const matrix = Object.entries(job.strategy?.matrix ?? {});
      expect(matrix.length, `${name}: one matrix dimension at most`).toBeLessThanOrEqual(1);
      const [key, values] = matrix[0] ?? ["", [""]];
      for (const value of values) {
        for (const step of job.steps) {
          if (step.run === undefined) continue;
          if (COVERED_BY_THE_SUITE.includes(step.run.trim())) continue;
          let command = expand(step.run, { ...context, [`matrix.${key}`]: String(value) });
          if (/\brun --all\b/.test(command)) {
            command = command.replace("--all", SUBSET.join(" "));
            subsetRuns++;
          }
          if (/\badr check --reproduce\b/.test(command)) {
            command = command.replace(
              "--reproduce",
              `--reproduce --only ${REPRODUCE_SUBSET.join(" ")}`,
            );
            reproduceRuns++;
          }
          const result = await runProcess({
            file: "bash",
            args: ["--noprofile", "--norc", "-eo", "pipefail", "-c", command],
            cwd: clone,
            env: {
              PATH: process.env.PATH ?? "/usr/bin:/bin",
              HOME: join(clone, ".."),
              LANG: "C.UTF-8",
              ...env,
            },
            timeoutMs: 900_000,
          });
          expect(result.exitCode, `${name}: ${command}\n${result.stdout}\n${result.stderr}`).toBe(
            0,
          );
          ran.push(command);
        }
      }
    }
    expect(subsetRuns, "the shard job's `run --all` ran once per shard").toBe(3);
    expect(reproduceRuns, "a step reproduces the protocols the Accepted ADRs require").toBe(1);
    expect(
      ran.some((c) => /main\.js adr check\b/.test(c)),
      "a step runs the ADR gate",
    ).toBe(true);
    const merged = ran.find((c) => /main\.js merge\b/.test(c)) ?? "";
    expect(merged, "a step merges the shards").not.toBe("");
    const junit = await readFile(join(clone, "records", "junit.xml"), "utf8");
    expect(junit).toContain("0011 claude-code-nested-worktree");
    // Every step in turn, the reproduction of 0001 among them: minutes, not the default minute.
  }, 1_200_000);
});

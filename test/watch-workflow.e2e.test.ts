// The scheduled watch workflow: its CLI matrix is the set of CLIs the locked protocols run, and
// each witness step parses and plans as written (watch with --dry-run added: registry queries
// only; matrix with --check: the committed pages are current).
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";
import { parse } from "yaml";

import { verifyProtocols } from "../prereg/verify.js";
import { WITNESS_ROOT, witnessInProcess } from "./support/witness-repo.js";

const WORKFLOW = join(WITNESS_ROOT, ".github", "workflows", "watch.yml");

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { strategy?: { matrix?: { cli?: string[] } }; steps: { run?: string }[] }>;
}

const load = async () => parse(await readFile(WORKFLOW, "utf8")) as Workflow;

// The witness arguments of a `run:` line: the words after `node dist/cli/main.js`, up to a
// redirection or a shell operator.
function witnessArgs(run: string, cli: string): string[] | null {
  const at = run.indexOf("node dist/cli/main.js ");
  if (at < 0) return null;
  const words = run.slice(at).replaceAll("${{ matrix.cli }}", cli).split(/\s+/).slice(2);
  const end = words.findIndex((w) => [">", "||", "&&", "|", ";"].includes(w));
  return end < 0 ? words : words.slice(0, end);
}

describe("the scheduled watch workflow", () => {
  it("runs on a schedule and watches every CLI a locked protocol runs, one job each", async () => {
    const workflow = await load();
    expect(Object.keys(workflow.on)).toContain("schedule");
    const clis = new Set(
      (await verifyProtocols({ cwd: WITNESS_ROOT })).map((c) => c.loaded.protocol.cli.name),
    );
    expect(new Set(workflow.jobs.watch?.strategy?.matrix?.cli)).toEqual(clis);
  });

  it("runs each witness step as written, planning only", async () => {
    const workflow = await load();
    const runs = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => s.run ?? []));
    const steps = runs.map((r) => witnessArgs(r, "codex")).filter((a): a is string[] => a !== null);
    expect(steps.map((s) => s[0])).toEqual(["watch", "matrix"]);
    for (const args of steps) {
      const extra = args[0] === "watch" ? ["--dry-run"] : ["--check"];
      const result = await witnessInProcess(WITNESS_ROOT, ...args, ...extra);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
    }
  });
});

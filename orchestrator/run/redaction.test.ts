import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { fakeClis } from "../../test/support/fake-clis.js";
import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { resumeWorkflow, runWorkflow } from "./run-workflow.js";

const TOKEN = `ghp_${"Q7r8".repeat(9)}`;
const URL_PASSWORD = "hunter2pass";
const PROMPT = `push with ${TOKEN} to https://bot:${URL_PASSWORD}@git.example/repo`;

function setup(failing: boolean) {
  const repo = tempWorkspace();
  const fakes = fakeClis(repo.base, ["claude"]);
  fakes.failing(failing);
  const workflowFile = repo.write(
    "workflow.yaml",
    `name: secret\nnodes:\n  - id: push\n    adapter: claude-code\n    prompt: "${PROMPT}"\n`,
  );
  const env = { PATH: `${fakes.bin}:/usr/bin:/bin`, HOME: repo.home };
  return { repo, fakes, workflowFile, env, stateDir: join(repo.base, "state") };
}

const onDisk = (stateDir: string) =>
  ["state.json", "events.jsonl"].map((name) => readFileSync(join(stateDir, name), "utf8"));

describe("secrets in a workflow", () => {
  it("are redacted in state.json and events.jsonl; the CLI still gets the real prompt", async () => {
    const t = setup(false);
    await runWorkflow({
      workflowFile: t.workflowFile,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
    });
    for (const text of onDisk(t.stateDir)) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(URL_PASSWORD);
      expect(text).toContain(`<redacted:${TOKEN.length}>`);
      expect(text).toContain(`https://bot:<redacted:${URL_PASSWORD.length}>@git.example`);
    }
    expect(t.fakes.calls()[0]?.args).toContain(PROMPT);
  });

  it("a resume re-reads the unchanged workflow file and runs the real prompt", async () => {
    const t = setup(true);
    await runWorkflow({
      workflowFile: t.workflowFile,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
    });
    t.fakes.failing(false);
    const resumed = await resumeWorkflow({ stateDir: t.stateDir, env: t.env });
    expect(resumed.status).toBe("succeeded");
    expect(t.fakes.calls().map((c) => c.args.includes(PROMPT))).toEqual([true, true]);
    for (const text of onDisk(t.stateDir)) expect(text).not.toContain(TOKEN);
  });

  it("a resume refuses a workflow file that changed while its recorded copy is redacted", async () => {
    const t = setup(true);
    await runWorkflow({
      workflowFile: t.workflowFile,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
    });
    writeFileSync(
      t.workflowFile,
      readFileSync(t.workflowFile, "utf8").replace("push with", "pull"),
    );
    await expect(resumeWorkflow({ stateDir: t.stateDir, env: t.env })).rejects.toThrow(
      /workflow\.yaml: changed since the run started.*secrets redacted/,
    );
  });
});

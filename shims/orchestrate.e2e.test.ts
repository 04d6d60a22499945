import "./vitest.js";

import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { isSecretName } from "../core/child-env.js";
import { builtCli } from "../test/support/built-cli.js";
import { run, tempDir } from "../test/support/temp-dir.js";
import { readShimLog } from "./read-log.js";

// Use it on ourselves: the reference orchestrator, built, run with shims on PATH.
const MAIN = builtCli();
const WORKFLOW = join(import.meta.dirname, "test/fixtures/orchestrate/workflow.yaml");

const SECRETS = {
  ANTHROPIC_API_KEY: "sk-ant-should-not-pass",
  ANTHROPIC_AUTH_TOKEN: "tok-should-not-pass",
  CLAUDE_CODE_OAUTH_TOKEN: "oauth-should-not-pass",
  OPENAI_API_KEY: "sk-should-not-pass",
  CODEX_API_KEY: "cx-should-not-pass",
  GITHUB_TOKEN: "ghp-should-not-pass",
  AWS_SECRET_ACCESS_KEY: "aws-should-not-pass",
};

describe("witness orchestrate run under shims", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it("spawns exactly the planned argv, and no key or token reaches a child", async () => {
    const bin = join(dir, "bin");
    const install = await run(process.execPath, [
      MAIN,
      "shim",
      "install",
      "--dir",
      bin,
      "--stdout",
      '{"type":"result","result":"ok"}\n',
      // Record every variable, so a leaked secret cannot hide outside the default selection.
      "--env",
      "*",
      "claude",
      "codex",
    ]);
    expect(install.exitCode, install.stderr).toBe(0);
    const work = join(dir, "work");
    const home = join(dir, "home");
    await mkdir(work);
    await mkdir(home);
    await copyFile(WORKFLOW, join(work, "workflow.yaml"));

    const result = await run(
      process.execPath,
      [MAIN, "orchestrate", "run", "workflow.yaml", "--state", "state"],
      {
        cwd: work,
        env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: home, ...SECRETS },
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);

    const log = await readShimLog(join(bin, "shims.jsonl"));
    expect(log.problems).toEqual([]);
    expect(log.records.map((r) => r.shim)).toEqual(["claude", "codex"]);
    expect(log).toHaveSpawned("claude", {
      times: 1,
      cwd: work,
      argv: [
        "-p",
        "--model",
        "opus",
        "--setting-sources",
        "project",
        "--settings",
        '{"claudeMdExcludes":["**"]}',
        "--allowedTools",
        "Bash(git diff *)",
        "Read",
        "--",
        'Say "hi" to $USER; then `ls *`',
      ],
    });
    expect(log).toHaveSpawned("codex", {
      times: 1,
      cwd: work,
      argv: [
        "exec",
        "--sandbox",
        "workspace-write",
        "-c",
        'approval_policy="never"',
        "-c",
        "sandbox_workspace_write.exclude_slash_tmp=true",
        "-c",
        "sandbox_workspace_write.exclude_tmpdir_env_var=true",
        "-c",
        "project_doc_max_bytes=0",
        "--",
        "Fix it.",
      ],
    });
    for (const record of log.records) {
      expect(Object.keys(record.env).filter(isSecretName), `${record.shim}'s environment`).toEqual(
        [],
      );
      expect(record.env.HOME).toBe(home);
      expect(Object.keys(record.env)).toContain("PATH");
    }
  });
});

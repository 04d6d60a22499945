import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it, vi } from "vitest";

import { UsageError } from "../../core/errors.js";
import { fakeClis } from "../../test/support/fake-clis.js";
import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { resumeWorkflow, type ResumeWorkflowOptions, runWorkflow } from "./run-workflow.js";

const WORKFLOW = `
name: three
nodes:
  - id: report
    adapter: claude-code
    prompt: write the report
    needs: [scan, fix]
  - id: scan
    adapter: claude-code
    origin: planned
    prompt: scan the repo
    allowedTools: ["Bash(git *)"]
    ambientContext: all
  - id: fix
    adapter: codex
    origin: planned
    prompt: fix it
    needs: [scan]
`;
const SECRETS = {
  ANTHROPIC_API_KEY: "sk-ant-secret",
  ANTHROPIC_AUTH_TOKEN: "tok-secret",
  OPENAI_API_KEY: "sk-secret",
  CODEX_API_KEY: "cx-secret",
  GITHUB_TOKEN: "ghp-secret",
};

function setup() {
  const repo = tempWorkspace();
  const fakes = fakeClis(repo.base, ["claude", "codex", "opencode"]);
  const workflowFile = repo.write("workflow.yaml", WORKFLOW);
  repo.write("home/.codex/auth.json", "{}");
  repo.write("home/.codex/config.toml", "");
  repo.write("home/.codex/AGENTS.md", "operator instructions");
  const env = { PATH: `${fakes.bin}:/usr/bin:/bin`, HOME: repo.home, ...SECRETS };
  const stateDir = join(repo.base, "state");
  const printed: string[] = [];
  const print = (line: string) => printed.push(line);
  return { repo, fakes, workflowFile, env, stateDir, printed, print };
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));
const events = (stateDir: string) =>
  readFileSync(join(stateDir, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map(
      (line) =>
        JSON.parse(line) as {
          type: string;
          nodeId?: string;
          access?: { mode: string; reason: string };
        },
    );

describe("witness orchestrate run", () => {
  it("runs the nodes in dependency order through the seam with their whole argv", async () => {
    const t = setup();
    const summary = await runWorkflow({
      workflowFile: t.workflowFile,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
      print: t.print,
    });
    expect(summary.status).toBe("succeeded");
    const calls = t.fakes.calls();
    expect(calls.map((c) => [c.bin, c.args, c.cwd])).toEqual([
      [
        "claude",
        [
          "-p",
          "--setting-sources",
          "",
          "--strict-mcp-config",
          "--allowedTools",
          "Bash(git *)",
          "--tools",
          "Bash",
          "--",
          "scan the repo",
        ],
        t.repo.root,
      ],
      [
        "codex",
        [
          "exec",
          "--sandbox",
          "workspace-write",
          "-c",
          'approval_policy="never"',
          "-c",
          "sandbox_workspace_write.exclude_slash_tmp=true",
          "-c",
          "sandbox_workspace_write.exclude_tmpdir_env_var=true",
          "--ignore-user-config",
          "--ignore-rules",
          "-c",
          "project_doc_max_bytes=0",
          "-c",
          "mcp_servers={}",
          "--",
          "fix it",
        ],
        t.repo.root,
      ],
      [
        "claude",
        [
          "-p",
          "--setting-sources",
          "project",
          "--settings",
          expect.any(String) as string,
          "--",
          "write the report",
        ],
        t.repo.root,
      ],
    ]);
    expect(events(t.stateDir).map((e) => [e.type, e.nodeId])).toEqual([
      ["run.start", undefined],
      ["agent.start", "scan"],
      ["agent.end", "scan"],
      ["agent.start", "fix"],
      ["agent.end", "fix"],
      ["agent.start", "report"],
      ["agent.end", "report"],
      ["run.end", undefined],
    ]);
    expect(
      events(t.stateDir)
        .filter((e) => e.type === "agent.start")
        .map((e) => e.access),
    ).toEqual([
      {
        mode: "sandboxed",
        reason: "not-requested",
        explanation: "The node does not ask for full access.",
      },
      {
        mode: "sandboxed",
        reason: "not-requested",
        explanation: "The node does not ask for full access.",
      },
      {
        mode: "sandboxed",
        reason: "not-requested",
        explanation: "The node does not ask for full access.",
      },
    ]);
    const state = readJson(join(t.stateDir, "state.json")) as {
      toolPolicies: Record<string, unknown>;
      nodes: Record<string, { status: string }>;
    };
    expect(Object.keys(state.toolPolicies)).toEqual(["scan", "fix"]);
    expect(Object.values(state.nodes).map((n) => n.status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
    ]);
  });

  it("never hands a secret to a child, with or without the opt-in", async () => {
    for (const accept of [false, true]) {
      const t = setup();
      await runWorkflow({
        workflowFile: t.workflowFile,
        stateDir: t.stateDir,
        cwd: t.repo.root,
        env: t.env,
        acceptLoadedUserConfig: accept,
      });
      for (const call of t.fakes.calls()) {
        for (const name of Object.keys(SECRETS)) expect(call.env[name]).toBeUndefined();
        expect(call.env.HOME).toBe(t.repo.home);
      }
    }
  });

  it("points Codex at a per-run CODEX_HOME mirroring the operator's minus AGENTS.md", async () => {
    const t = setup();
    await runWorkflow({
      workflowFile: t.workflowFile,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
    });
    const codex = t.fakes.calls().find((c) => c.bin === "codex");
    const overlay = join(t.stateDir, "homes", "fix", "CODEX_HOME");
    expect(codex?.env.CODEX_HOME).toBe(overlay);
    expect(readdirSync(overlay).sort()).toEqual(["auth.json", "config.toml"]);
    expect(readlinkSync(join(overlay, "auth.json"))).toBe(join(t.repo.home, ".codex", "auth.json"));
  });

  it("points opencode at a per-run OPENCODE_CONFIG_DIR with an empty AGENTS.md, and lets pi see the operator's agent directory", async () => {
    const repo = tempWorkspace();
    const fakes = fakeClis(repo.base, ["opencode", "pi"]);
    const workflowFile = repo.write(
      "workflow.yaml",
      "name: two\nnodes:\n  - { id: oc, adapter: opencode, prompt: go }\n  - { id: p, adapter: pi, prompt: go }\n",
    );
    repo.write("home/.config/opencode/AGENTS.md", "operator instructions");
    repo.write("home/.config/opencode/opencode.json", "{}");
    const agentDir = join(repo.base, "pi-agent");
    const stateDir = join(repo.base, "state");
    await runWorkflow({
      workflowFile,
      stateDir,
      cwd: repo.root,
      env: { PATH: `${fakes.bin}:/usr/bin:/bin`, HOME: repo.home, PI_CODING_AGENT_DIR: agentDir },
    });
    const overlay = join(stateDir, "homes", "oc", "OPENCODE_CONFIG_DIR");
    const calls = fakes.calls();
    expect(calls.find((c) => c.bin === "opencode")?.env.OPENCODE_CONFIG_DIR).toBe(overlay);
    expect(readdirSync(overlay).sort()).toEqual(["AGENTS.md", "opencode.json"]);
    expect(readFileSync(join(overlay, "AGENTS.md"), "utf8")).toBe("");
    expect(calls.find((c) => c.bin === "pi")?.env.PI_CODING_AGENT_DIR).toBe(agentDir);
  });

  it("refuses a state directory it cannot create, before any node spawns", async () => {
    const t = setup();
    const stateDir = join(t.repo.root, "a-file", "state");
    writeFileSync(join(t.repo.root, "a-file"), "");
    await expect(
      runWorkflow({ workflowFile: t.workflowFile, stateDir, cwd: t.repo.root, env: t.env }),
    ).rejects.toThrow(/cannot create the state directory .*a-file\/state \(ENOTDIR\)/);
    expect(t.fakes.calls()).toEqual([]);
  });

  it("refuses to start over a state directory that already holds a run", async () => {
    const t = setup();
    await runWorkflow({
      workflowFile: t.workflowFile,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
    });
    await expect(
      runWorkflow({
        workflowFile: t.workflowFile,
        stateDir: t.stateDir,
        cwd: t.repo.root,
        env: t.env,
      }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it("records a refusal, skips what depends on it, and spawns nothing for either", async () => {
    const t = setup();
    const file = t.repo.write(
      "refused.yaml",
      "nodes:\n  - {id: a, adapter: gemini, prompt: go, ambientContext: none}\n  - {id: b, adapter: gemini, prompt: go, needs: [a]}\n",
    );
    const summary = await runWorkflow({
      workflowFile: file,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
    });
    expect(summary.status).toBe("refused");
    expect(summary.refusals.map((r) => [r.nodeId, r.code])).toEqual([
      ["a", "ambient-context-refused"],
    ]);
    expect(summary.nodes).toEqual({
      a: { status: "refused", reason: "ambient-context-refused" },
      b: { status: "skipped", reason: "needs a, which did not succeed" },
    });
    expect(t.fakes.calls()).toEqual([]);
  });
});

describe("witness orchestrate resume (background.md#tp-resume)", () => {
  it.each([
    [false, '"settingSources": ""', ["--setting-sources", ""]],
    [true, null, ["--setting-sources", "user,project"]],
  ] as const)(
    "with the opt-in %s inherits the recorded policies, keeps their shape and prints the same disclosure",
    async (accept, marker, sources) => {
      const t = setup();
      t.fakes.failing(true);
      const first = await runWorkflow({
        workflowFile: t.workflowFile,
        stateDir: t.stateDir,
        cwd: t.repo.root,
        env: t.env,
        acceptLoadedUserConfig: accept,
        print: t.print,
      });
      expect(first.nodes).toMatchObject({
        scan: { status: "failed", exitCode: 3 },
        fix: { status: "skipped" },
        report: { status: "skipped" },
      });
      const stateText = readFileSync(join(t.stateDir, "state.json"), "utf8");
      const firstScreen = [...t.printed];
      t.printed.length = 0;
      t.fakes.failing(false);
      const second = await resumeWorkflow({ stateDir: t.stateDir, env: t.env, print: t.print });
      expect(second.status).toBe("succeeded");
      expect(t.printed).toEqual(firstScreen);
      const calls = t.fakes.calls();
      const claude = calls.filter((c) => c.bin === "claude");
      expect(claude.map((c) => c.args.slice(1, 3))).toEqual([
        sources,
        sources,
        ["--setting-sources", "project"],
      ]);
      expect(claude[0]?.args).toEqual(claude[1]?.args);
      expect(claude[1]?.args.includes("--strict-mcp-config")).toBe(!accept);
      const codex = calls.find((c) => c.bin === "codex");
      expect(codex?.args.includes("--ignore-user-config")).toBe(!accept);
      const rewritten = readFileSync(join(t.stateDir, "state.json"), "utf8");
      for (const text of [stateText, rewritten]) {
        const policies = (JSON.parse(text) as { toolPolicies: Record<string, object> })
          .toolPolicies;
        for (const policy of Object.values(policies))
          expect("settingSources" in policy).toBe(!accept);
        if (marker !== null) expect(text).toContain(marker);
      }
    },
  );

  it("has no option that widens what the first leg chose", () => {
    type Keys = keyof ResumeWorkflowOptions;
    const keys: Record<Keys, true> = {
      stateDir: true,
      env: true,
      operatorHome: true,
      parentDetector: true,
      timeoutMs: true,
      print: true,
    };
    expect(Object.keys(keys).filter((k) => /accept|ambient|policy/i.test(k))).toEqual([]);
  });
});

describe("worker full access in a run", () => {
  it("probes the parent once, on the first launch that reaches it, and records access on every launch", async () => {
    const t = setup();
    const file = t.repo.write(
      "full.yaml",
      [
        "defaults: {adapter: codex, fullAccess: true, effort: high, ambientContext: all}",
        "nodes:",
        "  - {id: small, prompt: go, model: small}",
        "  - {id: big1, prompt: go, model: gpt-5}",
        "  - {id: big2, prompt: go, model: gpt-5}",
      ].join("\n"),
    );
    const config = t.repo.write(
      "witness.yaml",
      "workflow:\n  workerFullAccess:\n    enabled: true\n    floors:\n      codex: [{model: gpt-5, minEffort: high}]\n",
    );
    const detect = vi.fn(() =>
      Promise.resolve({
        fullAccess: true,
        evidence: [{ source: "codex-rollout", detail: "danger-full-access", passed: true }],
      }),
    );
    await runWorkflow({
      workflowFile: file,
      stateDir: t.stateDir,
      cwd: t.repo.root,
      env: t.env,
      projectConfigFile: config,
      parentDetector: { detect },
    });
    expect(detect).toHaveBeenCalledTimes(1);
    const log = events(t.stateDir);
    expect(log.filter((e) => e.type === "worker_access.parent").map((e) => e.nodeId)).toEqual([
      "big1",
    ]);
    expect(
      log
        .filter((e) => e.type === "agent.start")
        .map((e) => [e.nodeId, e.access?.mode, e.access?.reason]),
    ).toEqual([
      ["small", "sandboxed", "model-not-listed"],
      ["big1", "full-access", "granted"],
      ["big2", "full-access", "granted"],
    ]);
    expect(t.fakes.calls().map((c) => c.args[2])).toEqual([
      "workspace-write",
      "danger-full-access",
      "danger-full-access",
    ]);
    expect(existsSync(join(t.stateDir, "logs", "big2.stdout"))).toBe(true);
  });
});

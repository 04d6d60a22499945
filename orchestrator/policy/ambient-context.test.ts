import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import {
  ancestorExcludes,
  type TempWorkspace,
  tempWorkspace,
} from "../../test/support/temp-workspace.js";
import type { PlanLaunchInput } from "../plan/launch-types.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { AmbientContext, NodeSpec, WorkflowSpec } from "../spec/schemas.js";
import { claudeAmbient, resolveAmbient } from "./ambient-context.js";
import {
  AMBIENT_SUPPORT,
  RECORD_0001,
  RECORD_0002,
  RECORD_0003,
  RECORD_0004,
  RECORD_0016,
  RECORD_0017,
  RECORD_0019,
  RECORD_0028,
  RECORD_0029,
  RECORD_0033,
  RECORD_0047,
  RECORD_0050,
  RECORD_0051,
} from "./ambient-support.js";

let repo: TempWorkspace;
beforeAll(() => {
  repo = tempWorkspace();
});

function plan(node: Omit<NodeSpec, "id">, extra: Partial<PlanLaunchInput> = {}) {
  return planLaunch({
    node: { id: "n", prompt: "go", ...node },
    cwd: repo.root,
    env: { HOME: repo.home },
    ...extra,
  });
}

describe("ambient_context precedence", () => {
  const workflow: WorkflowSpec = { nodes: [{ id: "n" }], defaults: { ambientContext: "operator" } };
  it.each([
    [{ run: "none", node: "all", workflow, env: "all" }, "none", "run"],
    [{ node: "all", workflow, env: "none" }, "all", "node"],
    [{ workflow, env: "none" }, "operator", "workflow"],
    [{ env: "none" }, "none", "environment"],
    [{}, "workspace", "default"],
  ] as const)("%j resolves to %s from %s", (input, value, source) => {
    const resolved = resolveAmbient({
      ...("run" in input ? { run: input.run } : {}),
      ...("node" in input ? { node: { id: "n", ambientContext: input.node } } : {}),
      ...("workflow" in input ? { workflow: input.workflow } : {}),
      env: "env" in input ? { WITNESS_AMBIENT_CONTEXT: input.env } : {},
    });
    expect(resolved).toEqual({ value, source });
  });
});

describe("a workflow's run block", () => {
  it("overrides the node's value as a run override does", async () => {
    const p = await plan(
      { adapter: "claude-code", ambientContext: "none" },
      { workflow: { nodes: [{ id: "n" }], run: { ambientContext: "all" } } },
    );
    expect([p.ambient, p.args]).toEqual([
      { value: "all", source: "run" },
      ["-p", "--setting-sources", "user,project", "--", "go"],
    ]);
  });
});

describe("Claude Code translation, hand-written node (the ambient value alone)", () => {
  const cases: [AmbientContext, string[]][] = [
    [
      "none",
      ["--setting-sources", "project", "--settings", JSON.stringify({ claudeMdExcludes: ["**"] })],
    ],
    ["workspace", ["--setting-sources", "project", "--settings", "WORKSPACE"]],
    ["operator", ["--setting-sources", "user,project", "--settings", "OPERATOR"]],
    ["all", ["--setting-sources", "user,project"]],
  ];
  it.each(cases)("%s renders %j", async (value, expected) => {
    const p = await plan({ adapter: "claude-code", ambientContext: value });
    const settings = expected.map((arg) =>
      arg === "WORKSPACE"
        ? JSON.stringify({ claudeMdExcludes: ancestorExcludes(repo.root) })
        : arg === "OPERATOR"
          ? JSON.stringify({ claudeMdExcludes: [join(repo.root, "**")] })
          : arg,
    );
    expect(p.args).toEqual(["-p", ...settings, "--", "go"]);
  });

  it("workspace excludes each ancestor's AGENTS.md too (record 0031: the parent's reached the model without it)", () => {
    const excludes = claudeAmbient("workspace", "/w/outside/repo").excludes ?? [];
    expect(excludes).toContain("/w/outside/AGENTS.md");
    expect(excludes).toContain("/AGENTS.md");
    expect(excludes).not.toContain("/w/outside/repo/AGENTS.md");
  });
});

describe("ADR 0002: isolation is a ceiling, ambient_context a request", () => {
  const cases: [AmbientContext, string, string[]][] = [
    ["none", JSON.stringify({ claudeMdExcludes: ["**"] }), []],
    ["workspace", "WORKSPACE", ["ambient-cut-by-ceiling"]],
    ["operator", JSON.stringify({ claudeMdExcludes: ["ROOT"] }), ["ambient-cut-by-ceiling"]],
    ["all", "", ["ambient-cut-by-ceiling"]],
  ];
  it.each(cases)(
    "a planned node declaring %s renders the intersection (no source), keeps the excludes, and warns when cut",
    async (value, settings, warnings) => {
      const p = await plan({ adapter: "claude-code", origin: "planned", ambientContext: value });
      const expectedSettings =
        settings === "WORKSPACE"
          ? JSON.stringify({ claudeMdExcludes: ancestorExcludes(repo.root) })
          : settings.replace("ROOT", join(repo.root, "**"));
      expect(p.args).toEqual([
        "-p",
        "--setting-sources",
        "",
        ...(expectedSettings === "" ? [] : ["--settings", expectedSettings]),
        "--strict-mcp-config",
        "--tools",
        "",
        "--",
        "go",
      ]);
      expect(
        p.diagnostics.filter((d) => d.code === "ambient-cut-by-ceiling").map((d) => d.code),
      ).toEqual(warnings);
    },
  );

  it("does not warn about the default value the ceiling narrows", async () => {
    const p = await plan({ adapter: "claude-code", origin: "planned" });
    expect(p.diagnostics).toEqual([]);
  });

  it("words the warning so the operator knows the way out", async () => {
    const p = await plan({ adapter: "claude-code", origin: "planned", ambientContext: "all" });
    expect(p.diagnostics).toEqual([
      {
        severity: "warning",
        code: "ambient-cut-by-ceiling",
        nodeId: "n",
        message:
          "ambient_context all (from node) asks for the user and project setting source, which the planned-node isolation ceiling does not load; pass --accept-loaded-user-config to lift the ceiling",
      },
    ]);
  });

  it("uses the ambient translation alone for an opted-in planned node", async () => {
    const p = await plan(
      { adapter: "claude-code", origin: "planned", ambientContext: "all" },
      { run: { acceptLoadedUserConfig: true } },
    );
    expect(p.args).toEqual(["-p", "--setting-sources", "user,project", "--tools", "", "--", "go"]);
  });

  it("merges full access into the same single --settings object as the excludes", async () => {
    const p = await plan(
      {
        adapter: "claude-code",
        ambientContext: "none",
        fullAccess: true,
        model: "opus",
        effort: "max",
      },
      {
        projectConfig: {
          workflow: {
            workerFullAccess: {
              enabled: true,
              floors: { "claude-code": [{ model: "opus", minEffort: "high" }] },
            },
          },
        },
        parentDetector: { detect: () => Promise.resolve({ fullAccess: true, evidence: [] }) },
      },
    );
    expect(p.args.filter((arg) => arg === "--settings")).toHaveLength(1);
    expect(p.args).toEqual([
      "-p",
      "--model",
      "opus",
      "--effort",
      "max",
      "--setting-sources",
      "project",
      "--settings",
      JSON.stringify({ claudeMdExcludes: ["**"], sandbox: { enabled: false } }),
      "--permission-mode",
      "bypassPermissions",
      "--",
      "go",
    ]);
  });
});

describe("Codex translation", () => {
  const base = [
    "exec",
    "--sandbox",
    "workspace-write",
    "-c",
    'approval_policy="never"',
    "-c",
    "sandbox_workspace_write.exclude_slash_tmp=true",
    "-c",
    "sandbox_workspace_write.exclude_tmpdir_env_var=true",
  ];
  const docsOff = ["-c", "project_doc_max_bytes=0"];
  it.each([
    ["none", [...base, ...docsOff, "--", "go"], true],
    ["workspace", [...base, "--", "go"], true],
    ["operator", [...base, ...docsOff, "--", "go"], false],
    ["all", [...base, "--", "go"], false],
  ] as const)("%s renders %j with an overlay: %s", async (value, args, overlaid) => {
    const p = await plan({ adapter: "codex", ambientContext: value });
    expect(p.args).toEqual(args);
    expect(p.homeOverlay).toEqual(
      overlaid
        ? {
            variable: "CODEX_HOME",
            source: join(repo.home, ".codex"),
            exclude: ["AGENTS.md", "AGENTS.override.md"],
          }
        : undefined,
    );
  });

  it("mirrors the operator's CODEX_HOME when it is set", async () => {
    const p = await plan({ adapter: "codex" }, { env: { CODEX_HOME: "/opt/codex-home" } });
    expect(p.homeOverlay?.source).toBe("/opt/codex-home");
  });

  it("does not render project_doc_max_bytes=0 twice under the ceiling", async () => {
    const p = await plan({ adapter: "codex", origin: "planned", ambientContext: "none" });
    expect(p.args.filter((arg) => arg === "project_doc_max_bytes=0")).toHaveLength(1);
  });
});

describe("pi translation: its walk off, the engine's files appended root-most first", () => {
  it.each([
    ["none", []],
    ["workspace", ["repo/AGENTS.md", "repo/sub/CLAUDE.md"]],
    ["operator", ["home/.pi/agent/AGENTS.md", "AGENTS.override.md"]],
    [
      "all",
      ["home/.pi/agent/AGENTS.md", "AGENTS.override.md", "repo/AGENTS.md", "repo/sub/CLAUDE.md"],
    ],
  ] as const)("%s appends %j", async (value, files) => {
    const local = tempWorkspace();
    local.write("AGENTS.override.md", "above the root");
    local.write("AGENTS.md", "shadowed by the override");
    local.write("repo/AGENTS.md", "root agents");
    local.write("repo/CLAUDE.md", "shadowed by AGENTS.md");
    local.write("repo/sub/CLAUDE.md", "sub claude");
    local.write("home/.pi/agent/AGENTS.md", "operator agents");
    const texts: Record<string, string> = {
      "AGENTS.override.md": "above the root",
      "repo/AGENTS.md": "root agents",
      "repo/sub/CLAUDE.md": "sub claude",
      "home/.pi/agent/AGENTS.md": "operator agents",
    };
    const p = await planLaunch({
      node: { id: "n", adapter: "pi", prompt: "go", ambientContext: value },
      cwd: join(local.root, "sub"),
      env: { HOME: local.home },
    });
    const appended = files.map((f) => `# ${join(local.base, f)}\n\n${texts[f]}\n`).join("\n");
    expect(p.args).toEqual(["-p", "--no-context-files", "--append-system-prompt", appended]);
    expect(p.stdin).toBe("go");
  });
});

describe("support table and its diagnostics", () => {
  it("honours a cell only with a witness record: Claude Code (records 0001-0003), Codex (record 0004), Gemini CLI (0016), Qwen Code (0017), pi (0029), opencode (0019, 0028), Kilo Code (0050), Kimi Code (0051) and GitHub Copilot CLI (0033)", () => {
    const honoured = Object.entries(AMBIENT_SUPPORT).flatMap(([backend, row]) =>
      Object.entries(row).flatMap(([value, cell]) =>
        cell.verdict === "honoured" ? [[backend, value, cell.record]] : [],
      ),
    );
    expect(honoured).toEqual([
      ["claude-code", "none", RECORD_0002],
      ["claude-code", "workspace", RECORD_0003],
      ["claude-code", "operator", RECORD_0003],
      ["claude-code", "all", RECORD_0001],
      ["codex", "none", RECORD_0004],
      ["codex", "workspace", RECORD_0004],
      ["codex", "operator", RECORD_0004],
      ["codex", "all", RECORD_0004],
      ["pi", "none", RECORD_0029],
      ["pi", "workspace", RECORD_0029],
      ["pi", "operator", RECORD_0029],
      ["pi", "all", RECORD_0029],
      ["opencode", "none", RECORD_0028],
      ["opencode", "workspace", RECORD_0028],
      ["opencode", "operator", RECORD_0028],
      ["opencode", "all", RECORD_0019],
      ["kilo", "none", RECORD_0050],
      ["kilo", "workspace", RECORD_0050],
      ["kilo", "operator", RECORD_0050],
      ["kilo", "all", RECORD_0050],
      ["kimi", "workspace", RECORD_0051],
      ["kimi", "all", RECORD_0051],
      ["gemini", "workspace", RECORD_0016],
      ["gemini", "all", RECORD_0016],
      ["qwen", "none", RECORD_0017],
      ["qwen", "all", RECORD_0017],
      ["copilot", "none", RECORD_0033],
      ["copilot", "workspace", RECORD_0033],
      ["copilot", "all", RECORD_0033],
      ["cline", "all", RECORD_0047],
    ]);
  });

  it.each([
    ["opencode", ["honoured", "honoured", "honoured", "honoured"]],
    ["kilo", ["honoured", "honoured", "honoured", "honoured"]],
    ["kimi", ["refused", "honoured", "refused", "honoured"]],
    ["grok", ["refused", "unmeasured", "refused", "unmeasured"]],
    ["claude-code", ["honoured", "honoured", "honoured", "honoured"]],
    ["codex", ["honoured", "honoured", "honoured", "honoured"]],
    ["pi", ["honoured", "honoured", "honoured", "honoured"]],
    ["gemini", ["refused", "honoured", "refused", "honoured"]],
    ["qwen", ["honoured", "unmeasured", "unmeasured", "honoured"]],
    ["cursor", ["unmeasured", "unmeasured", "unmeasured", "unmeasured"]],
    ["cline", ["refused", "refused", "refused", "honoured"]],
  ] as const)("%s: none, workspace, operator, all are %j", (backend, verdicts) => {
    const row = AMBIENT_SUPPORT[backend];
    expect([row.none, row.workspace, row.operator, row.all].map((cell) => cell.verdict)).toEqual(
      verdicts,
    );
  });

  it("warns about an explicit value on an unmeasured cell", async () => {
    const p = await plan({ adapter: "qwen", ambientContext: "workspace" });
    expect(p.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "ambient-context-unmeasured"],
    ]);
  });

  it("stays quiet about the default on an honoured or unmeasured cell", async () => {
    expect((await plan({ adapter: "claude-code" })).diagnostics).toEqual([]);
    expect((await plan({ adapter: "qwen" })).diagnostics).toEqual([]);
  });

  it("stays quiet about an honoured cell", async () => {
    expect((await plan({ adapter: "claude-code", ambientContext: "all" })).diagnostics).toEqual([]);
  });

  it.each([
    ["the node", { ambientContext: "none" as const }, {}],
    ["a run override", {}, { run: { ambientContext: "operator" } }],
    ["the environment", {}, { env: { WITNESS_AMBIENT_CONTEXT: "none" } }],
  ])("refuses a refused cell reached through %s at launch", async (_where, node, extra) => {
    await expect(plan({ adapter: "gemini", ...node }, extra)).rejects.toMatchObject({
      name: "RefusalError",
      code: "ambient-context-refused",
    });
  });
});

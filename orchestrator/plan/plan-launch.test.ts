import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { InputError, RefusalError } from "../../core/errors.js";
import {
  ancestorExcludes,
  type TempWorkspace,
  tempWorkspace,
} from "../../test/support/temp-workspace.js";
import type { NodeSpec } from "../spec/schemas.js";
import type { PlanLaunchInput } from "./launch-types.js";
import { planLaunch } from "./plan-launch.js";

let repo: TempWorkspace;
let workspaceSettings: string;
beforeAll(() => {
  repo = tempWorkspace();
  workspaceSettings = JSON.stringify({ claudeMdExcludes: ancestorExcludes(repo.root) });
});

function plan(node: Omit<NodeSpec, "id">, extra: Partial<PlanLaunchInput> = {}) {
  return planLaunch({
    node: { id: "n", prompt: "do it", ...node },
    cwd: repo.root,
    env: { HOME: repo.home },
    ...extra,
  });
}

const grants = {
  allowedTools: ["Bash(git *)", "Read"],
  disallowedTools: ["WebFetch"],
};

describe("Claude Code argv (background.md#tp-tests: default off, the opt-in's shape, Claude Code argv)", () => {
  it("renders a planned node's five layers under isolation", async () => {
    const p = await plan({
      adapter: "claude-code",
      origin: "planned",
      model: "opus",
      effort: "high",
      ...grants,
    });
    expect(p.file).toBe("claude");
    expect(p.args).toEqual([
      "-p",
      "--model",
      "opus",
      "--effort",
      "high",
      "--setting-sources",
      "",
      "--settings",
      workspaceSettings,
      "--strict-mcp-config",
      "--allowedTools",
      "Bash(git *)",
      "Read",
      "--tools",
      "Bash",
      "Read",
      "--disallowedTools",
      "WebFetch",
      "--",
      "do it",
    ]);
    expect(p.env).toEqual({});
  });

  it('drops --setting-sources "" and --strict-mcp-config under the opt-in and keeps the tool layers', async () => {
    const p = await plan(
      { adapter: "claude-code", origin: "planned", ...grants },
      { run: { acceptLoadedUserConfig: true } },
    );
    expect(p.args).toEqual([
      "-p",
      "--setting-sources",
      "project",
      "--settings",
      workspaceSettings,
      "--allowedTools",
      "Bash(git *)",
      "Read",
      "--tools",
      "Bash",
      "Read",
      "--disallowedTools",
      "WebFetch",
      "--",
      "do it",
    ]);
  });

  it("gives a hand-written node its own allowedTools and nothing else", async () => {
    const p = await plan({
      adapter: "claude-code",
      origin: "hand-written",
      ...grants,
      tools: ["Read"],
    });
    expect(p.args).toEqual([
      "-p",
      "--setting-sources",
      "project",
      "--settings",
      workspaceSettings,
      "--allowedTools",
      "Bash(git *)",
      "Read",
      "--",
      "do it",
    ]);
    expect(p.toolPolicy).toBeUndefined();
    expect(p.diagnostics.map((d) => d.code)).toEqual(["hand-written-policy"]);
  });

  it("keeps agent, plugin dirs and skills on an isolated planned node", async () => {
    const p = await plan({
      adapter: "claude-code",
      origin: "planned",
      agent: "reviewer",
      pluginDirs: ["/staged"],
      skills: ["lint"],
      allowedTools: ["Read"],
    });
    expect(p.args).toEqual([
      "-p",
      "--setting-sources",
      "",
      "--settings",
      workspaceSettings,
      "--strict-mcp-config",
      "--agent",
      "reviewer",
      "--plugin-dir",
      "/staged",
      "--allowedTools",
      "Read",
      "Skill(lint)",
      "--tools",
      "Read",
      "Skill",
      "--",
      "do it",
    ]);
  });

  it("drops agent, plugin dirs and skills under the opt-in and says why", async () => {
    const p = await plan(
      {
        adapter: "claude-code",
        origin: "planned",
        agent: "reviewer",
        pluginDirs: ["/staged"],
        skills: ["lint"],
        allowedTools: ["Read"],
      },
      { run: { acceptLoadedUserConfig: true } },
    );
    expect(p.args).toEqual([
      "-p",
      "--setting-sources",
      "project",
      "--settings",
      workspaceSettings,
      "--allowedTools",
      "Read",
      "--tools",
      "Read",
      "--",
      "do it",
    ]);
    expect(p.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["info", "agent-mapping-off"],
      ["info", "skill-activation-off"],
    ]);
  });

  it('renders an explicitly empty tool set as --tools ""', async () => {
    const p = await plan({ adapter: "claude-code", origin: "planned", ambientContext: "all" });
    expect(p.args).toEqual([
      "-p",
      "--setting-sources",
      "",
      "--strict-mcp-config",
      "--tools",
      "",
      "--",
      "do it",
    ]);
  });
});

describe("Codex argv (background.md#tp-tests: Codex argv)", () => {
  const overlay = () => ({
    variable: "CODEX_HOME",
    source: join(repo.home, ".codex"),
    exclude: ["AGENTS.md", "AGENTS.override.md"],
  });

  it("renders sandbox, approval and the four isolation arguments for a planned node", async () => {
    const p = await plan({ adapter: "codex", origin: "planned", model: "gpt-5", effort: "high" });
    expect(p.file).toBe("codex");
    expect(p.args).toEqual([
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
      "-m",
      "gpt-5",
      "-c",
      'model_reasoning_effort="high"',
      "--",
      "do it",
    ]);
    expect(p.homeOverlay).toEqual(overlay());
  });

  it("keeps sandbox and approval but none of the isolation arguments under the opt-in", async () => {
    const p = await plan(
      { adapter: "codex", origin: "planned" },
      { run: { acceptLoadedUserConfig: true } },
    );
    expect(p.args).toEqual([
      "exec",
      "--sandbox",
      "workspace-write",
      "-c",
      'approval_policy="never"',
      "-c",
      "sandbox_workspace_write.exclude_slash_tmp=true",
      "-c",
      "sandbox_workspace_write.exclude_tmpdir_env_var=true",
      "--",
      "do it",
    ]);
  });

  it("reads only the presence of layer 1, never its value", async () => {
    const inherited = {
      settingSources: "user,project",
      allowedTools: [],
      strictMcpConfig: true,
      disallowedTools: [],
    };
    const p = await plan({ adapter: "codex", origin: "planned" }, { inheritedPolicy: inherited });
    expect(p.args).toEqual([
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
      "do it",
    ]);
  });

  it("projects a read-only filesystem policy into --sandbox", async () => {
    const p = await plan({ adapter: "codex", filesystem: "read-only" });
    expect(p.args).toEqual([
      "exec",
      "--sandbox",
      "read-only",
      "-c",
      'approval_policy="never"',
      "--",
      "do it",
    ]);
  });

  it("warns that tool lists have no Codex rendering", async () => {
    const p = await plan({ adapter: "codex", origin: "planned", allowedTools: ["Read"] });
    expect(p.diagnostics).toEqual([
      {
        severity: "warning",
        code: "field-not-rendered",
        nodeId: "n",
        message: "allowedTools has no rendering on codex; it is not applied",
      },
    ]);
  });
});

describe("the other adapters", () => {
  it.each([
    ["opencode", "opencode", ["run", "-m", "fake/m"], "do it"],
    ["cursor", "cursor-agent", ["-p", "--model", "fake/m", "do it"], undefined],
    ["gemini", "gemini", ["-m", "fake/m"], "do it"],
    ["qwen", "qwen", ["-m", "fake/m"], "do it"],
    [
      "pi",
      "pi",
      ["-p", "--no-context-files", "--append-system-prompt", "", "--model", "fake/m"],
      "do it",
    ],
  ] as const)(
    "renders a hand-written %s node as %s %j, stdin %j",
    async (adapter, file, args, stdin) => {
      const p = await plan({ adapter, model: "fake/m" });
      expect([p.file, p.args, p.stdin]).toEqual([file, args, stdin]);
    },
  );

  it.each(["opencode", "pi", "cursor", "gemini", "qwen"] as const)(
    "refuses a planned %s node under the isolation ceiling it cannot render",
    async (adapter) => {
      await expect(plan({ adapter, origin: "planned" })).rejects.toMatchObject({
        name: "RefusalError",
        code: "isolation-unsupported",
      });
    },
  );

  it("launches a planned node on an adapter without isolation once the operator opted in", async () => {
    const p = await plan(
      { adapter: "gemini", origin: "planned" },
      { run: { acceptLoadedUserConfig: true } },
    );
    expect([p.args, p.stdin]).toEqual([[], "do it"]);
  });
});

describe("bad input", () => {
  it("names the file and field of a missing prompt", async () => {
    const error: unknown = await planLaunch({
      node: { id: "n", adapter: "codex" },
      cwd: repo.root,
      source: { file: "spec.yaml", path: "nodes.0" },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      "spec.yaml: nodes.0.prompt: expected a non-empty prompt",
    );
  });

  it("names an effort that is not on the adapter's scale", async () => {
    await expect(
      planLaunch({
        node: { id: "n", adapter: "claude-code", prompt: "go", effort: "turbo" },
        cwd: repo.root,
        source: { file: "n.yaml", path: "" },
      }),
    ).rejects.toThrow(
      "n.yaml: effort: expected one of low, medium, high, xhigh, max (claude-code's effort scale)",
    );
  });

  it("refuses an unknown ambient value from the environment by name", async () => {
    const error: unknown = await plan(
      { adapter: "claude-code" },
      { env: { WITNESS_AMBIENT_CONTEXT: "everything" } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusalError);
    expect((error as RefusalError).code).toBe("ambient-context-invalid");
  });
});

// `witness argv`, `plan` and `orchestrate` on the hand-written examples in orchestrator/examples/,
// in process (argv.e2e.test.ts runs a sample through the built binary).
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { disclosureFor } from "../../orchestrator/render/disclosure.js";
import { WITNESS_ROOT as ROOT } from "../../test/support/built-cli.js";
import { fakeClis } from "../../test/support/fake-clis.js";
import { runCliInProcess } from "../../test/support/in-process-cli.js";
import { ancestorExcludes, tempWorkspace } from "../../test/support/temp-workspace.js";

const EXAMPLES = join(ROOT, "orchestrator", "examples");
const example = (name: string) => join(EXAMPLES, name);

async function witness(args: string[], options: { cwd: string; home: string; path?: string }) {
  const result = await runCliInProcess({
    args,
    env: { PATH: options.path ?? process.env.PATH ?? "/usr/bin:/bin", HOME: options.home },
    cwd: options.cwd,
  });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

describe("witness argv on the examples (in process)", () => {
  it.each([
    [
      "planned-claude.yaml",
      [],
      (root: string) => [
        "-p",
        "--model",
        "claude-opus-4-5",
        "--effort",
        "high",
        "--setting-sources",
        "",
        "--settings",
        JSON.stringify({ claudeMdExcludes: ancestorExcludes(root) }),
        "--strict-mcp-config",
        "--allowedTools",
        "Bash(git diff *)",
        "Read",
        "Grep",
        "--tools",
        "Bash",
        "Read",
        "Grep",
        "--disallowedTools",
        "WebFetch",
        "--",
        "Review the staged diff and list the problems you find.",
      ],
    ],
    [
      "planned-claude.yaml",
      ["--accept-loaded-user-config", "--ambient-context", "all"],
      () => [
        "-p",
        "--model",
        "claude-opus-4-5",
        "--effort",
        "high",
        "--setting-sources",
        "user,project",
        "--allowedTools",
        "Bash(git diff *)",
        "Read",
        "Grep",
        "--tools",
        "Bash",
        "Read",
        "Grep",
        "--disallowedTools",
        "WebFetch",
        "--",
        "Review the staged diff and list the problems you find.",
      ],
    ],
    [
      "planned-codex.yaml",
      [],
      () => [
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
        "Fix the failing test in the parser.",
      ],
    ],
    [
      "hand-written-claude.yaml",
      ["--ambient-context", "all"],
      () => [
        "-p",
        "--setting-sources",
        "user,project",
        "--allowedTools",
        "Read",
        "Bash(gh issue list *)",
        "--",
        "Summarise the open issues.",
      ],
    ],
    [
      "ambient-operator-claude.yaml",
      [],
      (root: string) => [
        "-p",
        "--setting-sources",
        "user,project",
        "--settings",
        JSON.stringify({ claudeMdExcludes: [join(root, "**")] }),
        "--",
        "Draft the weekly update in my usual style.",
      ],
    ],
    [
      "pi-workspace.yaml",
      [],
      () => [
        "-p",
        "--no-context-files",
        "--append-system-prompt",
        "",
        "--model",
        "fake/model",
        "--thinking",
        "medium",
      ],
    ],
  ] as const)("%s %j prints the whole argv", async (file, flags, expected) => {
    const repo = tempWorkspace();
    const r = await witness(["argv", "--node", example(file), "--json", ...flags], {
      cwd: repo.root,
      home: repo.home,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { args: string[] }).args).toEqual(expected(repo.root));
  });

  it("prints pi's prompt as its stdin, not as an argument", async () => {
    const repo = tempWorkspace();
    const r = await witness(["argv", "--node", example("pi-workspace.yaml"), "--json"], {
      cwd: repo.root,
      home: repo.home,
    });
    expect((JSON.parse(r.stdout) as { stdin?: string }).stdin).toBe("Explain the build.");
    const text = await witness(["argv", "--node", example("pi-workspace.yaml")], {
      cwd: repo.root,
      home: repo.home,
    });
    expect(text.stdout).toContain('stdin: "Explain the build."');
  });

  it("shows full access decided by consent, floor and the parent's evidence", async () => {
    const repo = tempWorkspace();
    const r = await witness(
      [
        "argv",
        "--node",
        example("full-access-codex.yaml"),
        "--project-config",
        example("project-config.yaml"),
        "--json",
      ],
      { cwd: repo.root, home: repo.home },
    );
    expect(r.code).toBe(0);
    // No agent session marker in this environment, so the parent is not established as full access.
    expect((JSON.parse(r.stdout) as { access: unknown }).access).toEqual({
      mode: "sandboxed",
      reason: "parent-sandboxed",
      explanation:
        "The launching session is not established as full access; a worker never gets more than its parent.",
    });
  });

  it.each([
    ["ambient-none-gemini.yaml", "ambient-context-refused"],
    ["full-access-opencode.yaml", "full-access-unsupported"],
    ["full-access-read-only.yaml", "full-access-with-filesystem"],
  ])("%s is refused with exit 2 and its reason code", async (file, code) => {
    const repo = tempWorkspace();
    const r = await witness(["argv", "--node", example(file)], { cwd: repo.root, home: repo.home });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.startsWith(`witness: refused (${code}): `)).toBe(true);
  });

  it("refuses an unknown --ambient-context value by name", async () => {
    const repo = tempWorkspace();
    const r = await witness(
      ["argv", "--node", example("planned-codex.yaml"), "--ambient-context", "most"],
      { cwd: repo.root, home: repo.home },
    );
    expect([r.code, r.stderr]).toEqual([
      2,
      'witness: refused (ambient-context-invalid): run override: "most" is not an ambient_context value; expected one of none, workspace, operator, all\n',
    ]);
  });

  it("reports a malformed node as file: path: expected, with no stack", async () => {
    const repo = tempWorkspace();
    const file = join(ROOT, "orchestrator", "test", "fixtures", "malformed", "node.yaml");
    const r = await witness(["argv", "--node", file], { cwd: repo.root, home: repo.home });
    expect([r.code, r.stderr]).toEqual([
      2,
      `witness: ${file}: adapter: expected one of claude-code, codex, gemini, qwen, pi, opencode, copilot, cline, kilo, cursor, kimi\n${file}: allowedTools: Invalid input: expected array, received string\n`,
    ]);
  });

  it("reports a dependency cycle in a workflow", async () => {
    const repo = tempWorkspace();
    const file = join(ROOT, "orchestrator", "test", "fixtures", "malformed", "cycle.yaml");
    const r = await witness(["plan", "--workflow", file], { cwd: repo.root, home: repo.home });
    expect([r.code, r.stderr]).toEqual([
      2,
      `witness: ${file}: nodes: expected no dependency cycle; these nodes wait on each other: a, b\n`,
    ]);
  });
});

describe("witness plan and witness orchestrate (in process)", () => {
  it("prints one disclosure slot per runtime, loaded sentences under the opt-in", async () => {
    const repo = tempWorkspace();
    const r = await witness(
      ["plan", "--workflow", example("workflow.yaml"), "--accept-loaded-user-config"],
      { cwd: repo.root, home: repo.home },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const slots = lines.slice(lines.indexOf("Disclosure") + 1, lines.indexOf("De-escalations"));
    expect(slots).toEqual([
      `  ${disclosureFor("claude-code", "loaded")}`,
      `  ${disclosureFor("codex", "loaded")}`,
    ]);
    expect(lines.filter((line) => line.includes("isolated."))).toEqual([]);
  });

  it("runs a workflow with fake CLIs, resumes it, and resume takes no widening flag", async () => {
    const repo = tempWorkspace();
    const fakes = fakeClis(repo.base, ["claude", "codex"]);
    const path = `${fakes.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`;
    const state = join(repo.base, "state");
    fakes.failing(true);
    const first = await witness(
      ["orchestrate", "run", example("workflow.yaml"), "--state", state],
      { cwd: repo.root, home: repo.home, path },
    );
    expect(first.code).toBe(1);
    expect(first.stdout.split("\n")[0]).toBe("Plan: review-and-fix (3 nodes)");
    const widen = await witness(["orchestrate", "resume", state, "--accept-loaded-user-config"], {
      cwd: repo.root,
      home: repo.home,
      path,
    });
    expect(widen.code).toBe(2);
    fakes.failing(false);
    const second = await witness(["orchestrate", "resume", state], {
      cwd: repo.root,
      home: repo.home,
      path,
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(fakes.calls().map((c) => c.bin)).toEqual(["claude", "claude", "codex", "claude"]);
  });
});

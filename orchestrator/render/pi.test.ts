import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { AmbientContext } from "../spec/schemas.js";

type Repo = ReturnType<typeof tempWorkspace>;

// Both prompt files in the workspace's .pi and in pi's agent directory, or only the agent's.
function layout(which: "both" | "agent-only"): Repo {
  const repo = tempWorkspace();
  if (which === "both") {
    repo.write("repo/.pi/SYSTEM.md", "workspace system");
    repo.write("repo/.pi/APPEND_SYSTEM.md", "workspace append");
  }
  repo.write("home/.pi/agent/SYSTEM.md", "agent system");
  repo.write("home/.pi/agent/APPEND_SYSTEM.md", "agent append");
  return repo;
}

function plan(repo: Repo, value: AmbientContext) {
  return planLaunch({
    node: { id: "n", adapter: "pi", prompt: "go", model: "p/m", ambientContext: value },
    cwd: repo.root,
    env: { HOME: repo.home },
  });
}

const heading = (path: string, text: string) => `# ${path}\n\n${text}\n`;

describe("pi rendering of SYSTEM.md and APPEND_SYSTEM.md: the engine picks, pi's lookup never runs", () => {
  it("gives an empty --append-system-prompt and no --system-prompt where neither file exists", async () => {
    const p = await plan(tempWorkspace(), "none");
    expect([p.file, p.args, p.stdin, p.env]).toEqual([
      "pi",
      ["-p", "--no-context-files", "--append-system-prompt", "", "--model", "p/m"],
      "go",
      {},
    ]);
  });

  // [value, layout, the APPEND_SYSTEM.md appended, the --system-prompt value (absent: not given)]
  it.each([
    ["none", "both", undefined, ""],
    ["none", "agent-only", undefined, ""],
    ["workspace", "both", "repo/.pi/APPEND_SYSTEM.md", undefined],
    ["workspace", "agent-only", undefined, ""],
    ["operator", "both", "home/.pi/agent/APPEND_SYSTEM.md", "home/.pi/agent/SYSTEM.md"],
    ["operator", "agent-only", "home/.pi/agent/APPEND_SYSTEM.md", undefined],
    ["all", "both", "repo/.pi/APPEND_SYSTEM.md", undefined],
    ["all", "agent-only", "home/.pi/agent/APPEND_SYSTEM.md", undefined],
  ] as const)(
    "%s with %s: appends %s, --system-prompt %j",
    async (value, which, append, system) => {
      const repo = layout(which);
      const texts: Record<string, string> = {
        "repo/.pi/APPEND_SYSTEM.md": "workspace append",
        "home/.pi/agent/APPEND_SYSTEM.md": "agent append",
      };
      const p = await plan(repo, value);
      const appended =
        append === undefined ? "" : heading(join(repo.base, append), texts[append] ?? "");
      const systemArgs =
        system === undefined
          ? []
          : ["--system-prompt", system === "" ? "" : join(repo.base, system)];
      expect(p.args).toEqual([
        "-p",
        "--no-context-files",
        "--append-system-prompt",
        appended,
        ...systemArgs,
        "--model",
        "p/m",
      ]);
    },
  );

  it("puts the allowed APPEND_SYSTEM.md before the context files", async () => {
    const repo = layout("both");
    repo.write("repo/AGENTS.md", "root agents");
    const p = await plan(repo, "workspace");
    expect(p.args[3]).toBe(
      [
        heading(join(repo.root, ".pi", "APPEND_SYSTEM.md"), "workspace append"),
        heading(join(repo.root, "AGENTS.md"), "root agents"),
      ].join("\n"),
    );
  });
});

import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { runProcess } from "../../core/exec.js";
import { fixtureSchema } from "../contracts/fixture.js";
import { driverFor } from "../drivers/index.js";
import {
  type Cell,
  cellSentinels,
  cellsRemoved,
  createCell,
  handCellTo,
  removeCell,
  removeCellLater,
} from "./cell.js";

const baseEnv = buildChildEnv({ parent: process.env });

async function withCell(
  fixture: unknown,
  cli: "claude-code" | "codex",
  fn: (cell: Cell) => void | Promise<void>,
) {
  const cell = await createCell({
    fixture: fixtureSchema.parse(fixture),
    nonce: "n0nce",
    trust: (paths) => driverFor(cli).trustWorkspace(paths),
    baseEnv,
  });
  try {
    await fn(cell);
  } finally {
    await removeCell(cell);
  }
  expect(existsSync(cell.root)).toBe(false);
}

async function git(cell: Cell, cwd: string, ...args: string[]): Promise<string> {
  const result = await runProcess({ file: "git", args, cwd, env: { ...baseEnv, ...cell.env } });
  return result.stdout.trim();
}

const files = [
  { at: "workspace", path: "CLAUDE.md", content: "ws {{marker:WS}}" },
  { at: "home", path: ".claude/CLAUDE.md", content: "home {{marker:HOME}} and {{marker:WS}}" },
  { at: "parent", path: "CLAUDE.md", content: "parent {{marker:PARENT}}" },
  { at: "grandparent", path: "AGENTS.md", content: "grand {{marker:GRAND}}" },
];

describe("the probe cell", () => {
  it("gives the spawn its own HOME, XDG directories, TMPDIR and CODEX_HOME inside the cell", async () => {
    await withCell({}, "codex", (cell) => {
      for (const name of [
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "TMPDIR",
        "CODEX_HOME",
      ]) {
        expect(cell.env[name]?.startsWith(`${cell.root}/`), name).toBe(true);
        expect(existsSync(cell.env[name] ?? ""), name).toBe(true);
      }
      expect(cell.env.GIT_CONFIG_NOSYSTEM).toBe("1");
      expect(cell.env.GIT_CONFIG_GLOBAL).toBe(cell.gitConfig);
      expect(existsSync(join(cell.home, ".claude.json"))).toBe(false);
    });
  });

  it("plants files outside HOME with per-run markers and commits the workspace", async () => {
    await withCell({ files }, "claude-code", async (cell) => {
      expect(cell.workspace).toBe(join(cell.root, "outside", "grand", "parent", "ws"));
      expect(readFileSync(join(cell.workspace, "CLAUDE.md"), "utf8")).toBe("ws WITNESS-WS-n0nce");
      expect(readFileSync(join(cell.parent, "CLAUDE.md"), "utf8")).toBe(
        "parent WITNESS-PARENT-n0nce",
      );
      expect(readFileSync(join(cell.grandparent, "AGENTS.md"), "utf8")).toBe(
        "grand WITNESS-GRAND-n0nce",
      );
      expect(cell.markers).toEqual([
        {
          name: "WS",
          value: "WITNESS-WS-n0nce",
          planted: ["outside/grand/parent/ws/CLAUDE.md", "home/.claude/CLAUDE.md"],
        },
        { name: "HOME", value: "WITNESS-HOME-n0nce", planted: ["home/.claude/CLAUDE.md"] },
        {
          name: "PARENT",
          value: "WITNESS-PARENT-n0nce",
          planted: ["outside/grand/parent/CLAUDE.md"],
        },
        { name: "GRAND", value: "WITNESS-GRAND-n0nce", planted: ["outside/grand/AGENTS.md"] },
      ]);
      expect(await git(cell, cell.workspace, "rev-parse", "--show-toplevel")).toBe(cell.workspace);
      expect(await git(cell, cell.workspace, "ls-files")).toBe("CLAUDE.md");
      expect(await git(cell, cell.workspace, "status", "--porcelain")).toBe("");
    });
  });

  it("marks the workspace trusted for Claude Code only when the fixture asks", async () => {
    await withCell({ trust: true }, "claude-code", (cell) => {
      const config = JSON.parse(readFileSync(join(cell.home, ".claude.json"), "utf8")) as {
        projects: Record<string, { hasTrustDialogAccepted: boolean }>;
      };
      expect(config.projects[cell.workspace]?.hasTrustDialogAccepted).toBe(true);
    });
    await withCell({ trust: false }, "claude-code", (cell) => {
      expect(existsSync(join(cell.home, ".claude.json"))).toBe(false);
    });
  });

  it("marks the workspace trusted for Codex after whatever config the fixture planted", async () => {
    const files = [{ at: "home", path: ".codex/config.toml", content: 'model = "m"' }];
    await withCell({ trust: true, files }, "codex", (cell) => {
      expect(readFileSync(join(cell.codexHome, "config.toml"), "utf8")).toBe(
        `model = "m"\n\n[projects.${JSON.stringify(cell.workspace)}]\ntrust_level = "trusted"\n`,
      );
    });
    await withCell({ trust: false, files }, "codex", (cell) => {
      expect(readFileSync(join(cell.codexHome, "config.toml"), "utf8")).toBe('model = "m"');
    });
  });

  it("places the workspace under HOME when the fixture says under-home", async () => {
    await withCell({ workspace: "under-home", files }, "codex", (cell) => {
      expect(cell.workspace).toBe(join(cell.home, "projects", "parent", "ws"));
      expect(readFileSync(join(cell.home, "projects", "AGENTS.md"), "utf8")).toContain(
        "WITNESS-GRAND-n0nce",
      );
    });
  });

  it("builds a nested worktree whose parent directory is the primary checkout", async () => {
    await withCell({ workspace: "nested-worktree", files }, "codex", async (cell) => {
      expect(await git(cell, cell.workspace, "rev-parse", "--show-toplevel")).toBe(cell.workspace);
      expect(await git(cell, cell.parent, "rev-parse", "--show-toplevel")).toBe(cell.parent);
      expect(await git(cell, cell.parent, "worktree", "list")).toContain(cell.workspace);
      expect(await git(cell, cell.workspace, "ls-files")).toBe("CLAUDE.md");
    });
  });

  it("puts a workspace sentinel in .witness-sentinels, created and hidden from git status", async () => {
    const fixture = { sentinelsIn: { IN_WS: "workspace", IN_CELL: "cell" } };
    await withCell(fixture, "claude-code", async (cell) => {
      const dir = join(cell.workspace, ".witness-sentinels");
      expect(cell.workspaceSentinelDir).toBe(dir);
      expect(existsSync(dir)).toBe(true);
      expect(cellSentinels(cell, ["IN_WS", "IN_CELL", "UNPLACED"])).toEqual([
        { name: "IN_WS", path: join(dir, "IN_WS") },
        { name: "IN_CELL", path: join(cell.root, "sentinels", "IN_CELL") },
        { name: "UNPLACED", path: join(cell.root, "sentinels", "UNPLACED") },
      ]);
      writeFileSync(join(dir, "IN_WS"), "");
      expect(await git(cell, cell.workspace, "status", "--porcelain")).toBe("");
      expect(await git(cell, cell.workspace, "status", "--porcelain", "--ignored")).toBe(
        "!! .witness-sentinels/",
      );
      // Control: the same status does report a file written anywhere else in the workspace.
      writeFileSync(join(cell.workspace, "other"), "");
      expect(await git(cell, cell.workspace, "status", "--porcelain")).toBe("?? other");
    });
  });

  it("hides a nested worktree's workspace sentinels through the common git dir's exclude", async () => {
    const fixture = { workspace: "nested-worktree", sentinelsIn: { RAN: "workspace" } };
    await withCell(fixture, "codex", async (cell) => {
      writeFileSync(join(cell.workspaceSentinelDir, "RAN"), "");
      expect(await git(cell, cell.workspace, "status", "--porcelain")).toBe("");
      expect(await git(cell, cell.workspace, "status", "--porcelain", "--ignored")).toBe(
        "!! .witness-sentinels/",
      );
    });
  });

  it("leaves the workspace untouched when no sentinel is placed in it", async () => {
    await withCell({ sentinelsIn: { RAN: "cell" } }, "claude-code", (cell) => {
      expect(existsSync(cell.workspaceSentinelDir)).toBe(false);
      expect(existsSync(join(cell.workspace, ".git", "info", "exclude"))).toBe(false);
      expect(cellSentinels(cell, ["RAN"])[0]?.path).toBe(join(cell.sentinelDir, "RAN"));
    });
  });

  it("refuses a fixture file planted in the workspace sentinel directory, where it would fake a sentinel", () => {
    const planted = (path: string) =>
      fixtureSchema.safeParse({ files: [{ at: "workspace", path, content: "" }] }).error?.issues;
    const issues = planted(".witness-sentinels/RAN");
    expect(issues?.map((i) => i.path.join("."))).toEqual(["files.0.path"]);
    expect(issues?.[0]?.message).toContain("outside .witness-sentinels/");
    expect(planted(".witness-sentinels-not/RAN")).toBeUndefined();
    const home = fixtureSchema.safeParse({
      files: [{ at: "home", path: ".witness-sentinels/RAN", content: "" }],
    });
    expect(home.success).toBe(true);
  });

  it("starts no git process beyond init, add and commit (no automatic maintenance)", async () => {
    const trace = join(tmpdir(), `witness-git-trace-${process.pid}`);
    const cell = await createCell({
      fixture: fixtureSchema.parse({ files: [files[0]] }),
      nonce: "n",
      trust: (paths) => driverFor("claude-code").trustWorkspace(paths),
      // GIT_TRACE logs every git command and each process a git command runs.
      baseEnv: { ...baseEnv, GIT_TRACE: trace },
    });
    try {
      const log = readFileSync(trace, "utf8");
      const commands = [...log.matchAll(/trace: built-in: git (\w+)/g)].map((m) => m[1]);
      expect(commands).toEqual(["init", "add", "commit"]);
      expect(log).not.toContain("run_command");
    } finally {
      rmSync(trace, { force: true });
      await removeCell(cell);
    }
  });

  it("removes a cell off the caller's path, and cellsRemoved says when it is gone", async () => {
    const cell = await createCell({
      fixture: fixtureSchema.parse({}),
      nonce: "n",
      trust: (paths) => driverFor("codex").trustWorkspace(paths),
      baseEnv,
    });
    removeCellLater(cell);
    await cellsRemoved();
    expect(existsSync(cell.root)).toBe(false);
  });
});

describe("a cell handed to a sandboxed spawn", () => {
  it("is the spawn's uid's throughout, but its root and owner file stay witness's", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip("handing files to another uid needs root");
    await withCell(
      { files, workspace: "outside-home", trust: true },
      "claude-code",
      async (cell) => {
        await handCellTo(cell, 1879048301);
        const entries = readdirSync(cell.root, { recursive: true }) as string[];
        expect(entries.length).toBeGreaterThan(20);
        const owners = new Map(entries.map((e) => [e, lstatSync(join(cell.root, e)).uid]));
        expect(owners.get("witness-owner.json")).toBe(0);
        owners.delete("witness-owner.json");
        expect(new Set(owners.values())).toEqual(new Set([1879048301]));
        const root = lstatSync(cell.root);
        expect([root.uid, root.mode & 0o777]).toEqual([0, 0o755]);
      },
    );
  });
});

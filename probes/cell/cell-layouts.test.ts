// The layouts and paths a protocol may ask the cell for: a worktree at a path inside the primary,
// primary files planted after it, a cwd below the workspace, extra directories under the cell,
// and {{path:<root>}} in planted contents.
import { existsSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { gitOut } from "../../core/git.js";
import { tempDir } from "../../test/support/temp-dir.js";
import { fixtureSchema, layoutProblems } from "../contracts/fixture.js";
import { CELL_OWN_NAMES } from "../contracts/fixture-paths.js";
import { WITNESS_CLI } from "../contracts/placeholders.js";
import { driverFor } from "../drivers/index.js";
import { OWNER_FILE } from "../leftovers.js";
import { type Cell, createCell, removeCell } from "./cell.js";

const baseEnv = buildChildEnv({ parent: process.env });

async function withCell(fixture: unknown, fn: (cell: Cell) => void | Promise<void>): Promise<void> {
  const cell = await createCell({
    fixture: fixtureSchema.parse(fixture),
    nonce: "n0nce",
    trust: driverFor("claude-code").trustWorkspace,
    baseEnv,
  });
  try {
    await fn(cell);
  } finally {
    await removeCell(cell);
  }
}

const git = (cell: Cell, cwd: string, ...args: string[]) =>
  gitOut(["-c", "safe.directory=*", ...args], { cwd, env: { ...baseEnv, ...cell.env } });

describe("cell layouts", () => {
  it("puts a nested worktree at the given path inside the primary and plants after-worktree files uncommitted", async () => {
    await withCell(
      {
        workspace: "nested-worktree",
        worktree: ".iterion/worktrees/run1",
        files: [
          { at: "primary", path: "CLAUDE.md", content: "committed {{marker:REPO}}" },
          {
            at: "primary",
            path: "NOTES.md",
            content: "later {{marker:LATE}}",
            afterWorktree: true,
          },
        ],
      },
      async (cell) => {
        expect(cell.workspace).toBe(join(cell.primary, ".iterion", "worktrees", "run1"));
        expect(cell.primary).toBe(cell.parent);
        expect(await git(cell, cell.workspace, "rev-parse", "--show-toplevel")).toBe(
          cell.workspace,
        );
        // The worktree has the committed file and not the one planted after it.
        expect(readFileSync(join(cell.workspace, "CLAUDE.md"), "utf8")).toBe(
          "committed WITNESS-REPO-n0nce",
        );
        expect(existsSync(join(cell.workspace, "NOTES.md"))).toBe(false);
        expect(readFileSync(join(cell.primary, "NOTES.md"), "utf8")).toBe(
          "later WITNESS-LATE-n0nce",
        );
        expect(await git(cell, cell.primary, "ls-files")).toBe("CLAUDE.md");
      },
    );
  });

  it("starts the CLI in a directory below the workspace root, made for it", async () => {
    await withCell({ cwd: "packages/app" }, (cell) => {
      expect(cell.cwd).toBe(join(cell.workspace, "packages", "app"));
      expect(existsSync(cell.cwd)).toBe(true);
      expect(cell.primary).toBe(cell.workspace);
    });
  });

  it("plants extra directories under the cell and resolves {{path:<root>}} in contents", async () => {
    await withCell(
      {
        files: [
          {
            at: "cell",
            path: "staged/plugin/skills/s/SKILL.md",
            content: "root {{path:cell}} ws {{path:workspace}}",
          },
          {
            at: "workspace",
            path: "run.sh",
            content: "node {{path:witness-cli}} --help # {{path:tmp}}",
          },
        ],
      },
      (cell) => {
        expect(readFileSync(join(cell.root, "staged/plugin/skills/s/SKILL.md"), "utf8")).toBe(
          `root ${cell.root} ws ${cell.workspace}`,
        );
        expect(readFileSync(join(cell.workspace, "run.sh"), "utf8")).toBe(
          `node ${WITNESS_CLI} --help # ${cell.tmp}`,
        );
        expect(cell.pathRoots.home).toBe(cell.home);
      },
    );
  });

  it("reserves every name the cell makes at its root, the owner file included", async () => {
    expect(CELL_OWN_NAMES).toContain(OWNER_FILE);
    await withCell(
      { files: [{ at: "cell", path: "staged/x", content: "" }], workspace: "under-home" },
      async (cell) => {
        const made = (await readdir(cell.root)).filter((n) => n !== "staged");
        expect(made.filter((n) => !CELL_OWN_NAMES.includes(n))).toEqual([]);
      },
    );
    await withCell({}, async (cell) => {
      expect((await readdir(cell.root)).filter((n) => !CELL_OWN_NAMES.includes(n))).toEqual([]);
    });
  });

  it("stops planting once aborted (a signal to witness), leaving no cell behind", async () => {
    const { dir, cleanup } = await tempDir("witness-abort-cell-");
    const before = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const made = createCell({
        fixture: fixtureSchema.parse({ files: [{ at: "workspace", path: "a.md", content: "" }] }),
        nonce: "n0nce",
        trust: driverFor("claude-code").trustWorkspace,
        baseEnv,
        signal: AbortSignal.abort(),
      });
      await expect(made).rejects.toThrow(/aborted/);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      await cleanup();
    }
  });

  it("names the built CLI witness runs with (cli/main.e2e.test.ts finds it there)", () => {
    expect(WITNESS_CLI).toMatch(/\/dist\/cli\/main\.js$/);
  });

  it.each([
    [{ worktree: "run1" }, "worktree", "only with workspace: nested-worktree"],
    [
      { files: [{ at: "primary", path: "x", content: "", afterWorktree: true }] },
      "files.0.afterWorktree",
      "only with workspace: nested-worktree",
    ],
    [
      {
        workspace: "nested-worktree",
        files: [{ at: "workspace", path: "x", content: "", afterWorktree: true }],
      },
      "files.0.afterWorktree",
      "only on a file at: primary",
    ],
  ])("refuses the layout %j at %s", (fixture, path, message) => {
    const problems = layoutProblems(fixtureSchema.parse(fixture));
    expect(problems.some((p) => p.path.join(".") === path && p.message.includes(message))).toBe(
      true,
    );
  });

  it("refuses a .git worktree and a cell file inside another root, in the schema", () => {
    const git = fixtureSchema.safeParse({ workspace: "nested-worktree", worktree: ".git/wt" });
    expect(git.error?.issues[0]?.message).toContain("without a .git segment");
    const home = fixtureSchema.safeParse({ files: [{ at: "cell", path: "home/x", content: "" }] });
    expect(home.error?.issues[0]?.message).toBe(
      "expected at: home for a path inside the home directory; got cell",
    );
    const tmp = fixtureSchema.safeParse({ files: [{ at: "cell", path: "tmp/x", content: "" }] });
    expect(tmp.error?.issues[0]?.message).toContain("outside the cell's own names");
  });

  it("refuses a cwd or worktree that is not a plain relative path", () => {
    for (const bad of ["../up", "/abs", "a//b", "./x"]) {
      expect(fixtureSchema.safeParse({ cwd: bad }).success).toBe(false);
      expect(fixtureSchema.safeParse({ workspace: "nested-worktree", worktree: bad }).success).toBe(
        false,
      );
    }
  });
});

import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import {
  claudeConfigDir,
  claudeProjectSlug,
  claudeSessionPath,
  claudeSidechains,
  codexHomeDir,
  findClaudeSession,
  findCodexRollout,
  isClaudeSidechainName,
  locateClaudeSession,
  newestClaudeSession,
  newestCodexRollout,
  windowsPathInWsl,
} from "./locate.js";

const root = await mkdtemp(join(tmpdir(), "witness-locate-"));
afterAll(() => rm(root, { recursive: true, force: true }));

async function touch(path: string, ageSeconds = 0, record: unknown = {}): Promise<string> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, `${JSON.stringify(record)}\n`);
  const when = new Date(Date.now() - ageSeconds * 1000);
  await utimes(path, when, when);
  return path;
}

describe("claudeProjectSlug", () => {
  it.each([
    ["/tmp/ws", "-tmp-ws"],
    ["/home/u/my.project_v2", "-home-u-my-project-v2"],
    ["/tmp/ünï côde", "-tmp--n--c-de"],
  ])("turns %s into %s", (cwd, slug) => {
    expect(claudeProjectSlug(cwd)).toBe(slug);
  });

  it("cuts a path over 200 characters and appends the hash Claude Code 2.1.332 used for it", () => {
    // Observed: claude 2.1.332 run in this directory wrote projects/<first 200>-k5nga1/.
    const cwd = `/tmp/dexp/long/${"a".repeat(60)}/${"b".repeat(60)}/${"c".repeat(60)}/dir.with_dots`;
    const slug = claudeProjectSlug(cwd);
    expect(slug).toBe(`${cwd.replace(/[^a-zA-Z0-9]/g, "-").slice(0, 200)}-k5nga1`);
  });

  it("keeps a slug of exactly 200 characters as it is", () => {
    const cwd = `/${"x".repeat(199)}`;
    expect(claudeProjectSlug(cwd)).toBe(`-${"x".repeat(199)}`);
  });
});

describe("config directories", () => {
  it("prefers CLAUDE_CONFIG_DIR and CODEX_HOME, else falls back to HOME", () => {
    expect(claudeConfigDir({ HOME: "/h" })).toBe("/h/.claude");
    expect(claudeConfigDir({ HOME: "/h", CLAUDE_CONFIG_DIR: "/c" })).toBe("/c");
    expect(codexHomeDir({ HOME: "/h" })).toBe("/h/.codex");
    expect(codexHomeDir({ HOME: "/h", CODEX_HOME: "/x" })).toBe("/x");
    expect(claudeConfigDir({})).toBeNull();
    expect(codexHomeDir({})).toBeNull();
  });
});

describe("windowsPathInWsl", () => {
  it.each([
    ["C:\\Users\\me\\.codex", "/mnt/c/Users/me/.codex"],
    ["d:/work//codex-home/", "/mnt/d/work/codex-home"],
    ["/home/me/.codex", null],
    ["relative\\path", null],
  ])("maps %s to %s", (path, expected) => {
    expect(windowsPathInWsl(path)).toBe(expected);
  });

  it("uses the given mount root", () => {
    expect(windowsPathInWsl("E:\\x", "/tmp/m")).toBe("/tmp/m/e/x");
  });
});

describe("finding sessions", () => {
  const claude = join(root, "claude");
  const codex = join(root, "codex");

  it("finds a Claude Code session by id in any project directory", async () => {
    const path = await touch(claudeSessionPath(claude, "/work/ws", "aaaa-1111"));
    await touch(claudeSessionPath(claude, "/work/other", "bbbb-2222"), 60);
    expect(path).toBe(join(claude, "projects", "-work-ws", "aaaa-1111.jsonl"));
    expect(await findClaudeSession(claude, "aaaa-1111")).toBe(path);
    expect(await findClaudeSession(claude, "cccc-3333")).toBeNull();
    expect(await newestClaudeSession(claude)).toBe(path);
  });

  it("refuses an id that could leave the projects directory", async () => {
    expect(await findClaudeSession(claude, "../aaaa-1111")).toBeNull();
    expect(await findCodexRollout(codex, "x/../../y")).toBeNull();
  });

  it("finds a Codex rollout by thread id under sessions/YYYY/MM/DD", async () => {
    const id = "01a22b69-a30e-7733-af83-bd8d96292346";
    const path = await touch(
      join(codex, "sessions", "2026", "11", "30", `rollout-2026-11-30T07-44-33-${id}.jsonl`),
    );
    await touch(
      join(codex, "sessions", "2026", "11", "29", "rollout-2026-11-29T01-00-00-other.jsonl"),
      3600,
    );
    expect(await findCodexRollout(codex, id)).toBe(path);
    expect(await findCodexRollout(codex, "01a22b69-0000")).toBeNull();
    expect(await newestCodexRollout(codex)).toBe(path);
  });

  it("finds nothing in a directory that does not exist", async () => {
    expect(await findClaudeSession(join(root, "absent"), "aaaa")).toBeNull();
    expect(await newestClaudeSession(join(root, "absent"))).toBeNull();
    expect(await newestCodexRollout(join(root, "absent"))).toBeNull();
  });
});

describe("the main Claude Code session, never a sidechain", () => {
  const config = join(root, "sidechains");
  const project = join(config, "projects", "-w");
  const id = "11111111-2222-3333-4444-555555555555";

  it("skips agent-*.jsonl files and files whose records say isSidechain, even when newer", async () => {
    const main = await touch(join(project, `${id}.jsonl`), 60, {
      sessionId: id,
      isSidechain: false,
    });
    await touch(join(project, "agent-a1b2c3d.jsonl"), 0, { sessionId: id, isSidechain: true });
    await touch(join(project, "renamed.jsonl"), 10, { sessionId: id, isSidechain: true });
    expect(await newestClaudeSession(config)).toBe(main);
    expect(await locateClaudeSession(config, null)).toBe(main);
  });

  it("takes the session id the CLI reported over any age", async () => {
    const older = "99999999-2222-3333-4444-555555555555";
    const path = await touch(join(project, `${older}.jsonl`), 3600, { sessionId: older });
    expect(await locateClaudeSession(config, older)).toBe(path);
    expect(await locateClaudeSession(config, "00000000-0000-0000-0000-000000000000")).toBeNull();
  });

  it("lists the sidechains of a session beside it (2.0.x) and below it (2.1.4)", async () => {
    const main = join(project, `${id}.jsonl`);
    await touch(join(project, "agent-other.jsonl"), 0, { sessionId: "someone-else" });
    const nested = await touch(join(project, id, "subagents", "agent-a9.jsonl"), 0, {
      sessionId: id,
    });
    expect(await claudeSidechains(main, id)).toEqual([
      join(project, "agent-a1b2c3d.jsonl"),
      nested,
    ]);
  });

  it.each([
    ["agent-a961150.jsonl", true],
    ["agent-ce493ee0.jsonl", true],
    ["70d1d76d-58cd-4f4b-9cb7-ff616ebbcc04.jsonl", false],
  ])("%s is a sidechain name: %s", (name, expected) => {
    expect(isClaudeSidechainName(name)).toBe(expected);
  });
});

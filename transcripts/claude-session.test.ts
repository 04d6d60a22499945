import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import {
  homeWith,
  recorded,
  removeHomes,
  sessionIdOf,
} from "../test/support/recorded-transcripts.js";
import { readClaudeSession } from "./claude-session.js";
import { claudeProjectSlug } from "./locate.js";

const runs = recorded("claude-code");

afterAll(removeHomes);

describe("readClaudeSession on transcripts the real CLI wrote", () => {
  it("has fixtures from at least two versions of Claude Code", () => {
    expect(new Set(runs.map((r) => r.version)).size).toBeGreaterThanOrEqual(2);
  });

  for (const run of runs) {
    it(`${run.name}: reads back the session id, version and cwd, with no broken line`, async () => {
      const session = await readClaudeSession(run.file);
      expect(session.sessionId).toBe(sessionIdOf(run));
      expect(session.version).toBe(run.version);
      expect(session.cwd).toBe(run.meta.cwd);
      expect(session.broken).toEqual([]);
      const counted = Object.values(session.recordCounts).reduce((a, b) => a + b, 0);
      expect(counted).toBe(session.lineCount);
      expect(session.recordCounts.user).toBeGreaterThan(0);
      expect(session.rawText.split("\n").length).toBeGreaterThanOrEqual(session.lineCount);
    });

    it(`${run.name}: the CLI stored it under the slug of its cwd`, () => {
      const id = sessionIdOf(run);
      expect(run.meta.sessionPath).toBe(
        `.claude/projects/${claudeProjectSlug(run.meta.cwd)}/${id}.jsonl`,
      );
    });
  }

  for (const run of recorded("claude-code", "default")) {
    it(`${run.name}: default mode, one Bash call accepted by a rule and one rejected`, async () => {
      const session = await readClaudeSession(run.file);
      expect(session.permissionMode).toBe("default");
      expect(
        session.toolUses.map((u) => [u.name, (u.input as { command: string }).command]),
      ).toEqual([
        ["Bash", `touch ${run.meta.cwd}/ACCEPTED`],
        ["Bash", `mkdir ${run.meta.cwd}/REJECTED`],
      ]);
      const [accepted, rejected] = session.toolUses.map((u) =>
        session.toolResults.find((r) => r.toolUseId === u.id),
      );
      expect(accepted).toMatchObject({
        isError: false,
        permissionDecision: { decision: "accept" },
      });
      expect(rejected).toMatchObject({ isError: true, permissionDecision: { decision: "reject" } });
      expect(rejected?.text).toContain("REJECTED");
      expect(String(rejected?.toolUseResult)).toContain("REJECTED");
    });

    it(`${run.name}: lists the loaded memory files and the skill listing`, async () => {
      const session = await readClaudeSession(run.file);
      const home = run.meta.home;
      expect(session.instructions.map((i) => [i.type, i.path])).toEqual([
        ["User", `${home}/.claude/CLAUDE.md`],
        ["Project", `${run.meta.cwd}/CLAUDE.md`],
      ]);
      expect(session.instructions[1]?.content).toContain("WITNESS_MARKER_PROJECT_MEMORY");
      expect(session.skillListings.length).toBeGreaterThan(0);
      expect(session.rawText).toContain("WITNESS_MARKER_USER_MEMORY");
    });
  }

  for (const run of recorded("claude-code", "bypass")) {
    it(`${run.name}: bypassPermissions, the Bash call accepted by the mode`, async () => {
      const session = await readClaudeSession(run.file);
      expect(session.permissionMode).toBe("bypassPermissions");
      expect(session.toolResults).toHaveLength(1);
      expect(session.toolResults[0]).toMatchObject({
        isError: false,
        permissionDecision: { decision: "accept", reasonType: "mode" },
      });
      expect(session.instructions).toEqual([]);
    });
  }
});

describe("readClaudeSession on damaged or newer transcripts", () => {
  const base = recorded("claude-code", "default")[0];

  async function edited(edit: (lines: string[]) => string[]): Promise<string> {
    if (base === undefined) throw new Error("no default-mode fixture recorded");
    const dir = await homeWith();
    const path = join(dir, "session.jsonl");
    const lines = (await readFile(base.file, "utf8")).split("\n").filter((l) => l !== "");
    await writeFile(path, `${edit(lines).join("\n")}\n`);
    return path;
  }

  it("reports a line that is not JSON with its line number and reads on past it", async () => {
    const path = await edited((lines) => [
      ...lines.slice(0, 4),
      '{"type":"user",',
      ...lines.slice(4),
    ]);
    const session = await readClaudeSession(path);
    expect(session.broken.map((b) => b.line)).toEqual([5]);
    expect(session.broken[0]?.error).toMatch(/^not JSON: /);
    expect(session.toolUses).toHaveLength(2);
    expect(session.toolResults).toHaveLength(2);
  });

  it("keeps and counts records of a type it does not know", async () => {
    const future = JSON.stringify({ type: "future-record", detail: { x: 1 } });
    const path = await edited((lines) => [...lines.slice(0, 2), future, ...lines.slice(2), future]);
    const session = await readClaudeSession(path);
    expect(session.recordCounts["future-record"]).toBe(2);
    expect(session.unknownRecords.map((r) => [r.line, r.type])).toEqual([
      [3, "future-record"],
      [session.lineCount, "future-record"],
    ]);
    expect(session.broken).toEqual([]);
    expect(session.permissionMode).toBe("default");
  });

  it("reports a known record that lacks a field it relies on, by line and field", async () => {
    const bad = JSON.stringify({ type: "user", permissionMode: "plan" });
    const path = await edited((lines) => [bad, ...lines]);
    const session = await readClaudeSession(path);
    expect(session.broken.map((b) => b.line)).toEqual([1]);
    expect(session.broken[0]?.error).toMatch(/^user record: message: /);
    expect(session.permissionModes.map((m) => m.mode)).toEqual(["default"]);
  });

  it("takes the latest prompt record's permission mode", async () => {
    const later = JSON.stringify({
      type: "user",
      permissionMode: "plan",
      message: { role: "user", content: "again" },
    });
    const path = await edited((lines) => [...lines, later]);
    const session = await readClaudeSession(path);
    expect(session.permissionMode).toBe("plan");
    expect(session.permissionModes.map((m) => m.mode)).toEqual(["default", "plan"]);
  });

  it("rejects a file that does not exist", async () => {
    await expect(readClaudeSession("/nonexistent/witness/session.jsonl")).rejects.toThrow(/ENOENT/);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { recorded, sessionIdOf } from "../test/support/recorded-transcripts.js";
import { readClaudeSession } from "./claude-session.js";
import { claudeProjectSlug } from "./locate.js";

const runs = recorded("claude-code");
const dir = await mkdtemp(join(tmpdir(), "witness-claude-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function session(name: string, records: unknown[], raw = "") {
  const path = join(dir, name);
  await writeFile(path, raw + records.map((r) => JSON.stringify(r)).join("\n"));
  return readClaudeSession(path);
}

const prompt = (mode?: string) => ({
  type: "user",
  sessionId: "s-1",
  cwd: "/w",
  version: "2.1.332",
  ...(mode === undefined ? {} : { permissionMode: mode }),
  message: { role: "user", content: "go" },
});
const toolUse = (id: string, name: string, input: unknown, messageId = "m1") => ({
  type: "assistant",
  message: { id: messageId, model: "claude-x", content: [{ type: "tool_use", id, name, input }] },
});
const toolResult = (id: string, content: string, isError: boolean, extra = {}) => ({
  type: "user",
  message: { content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
  ...extra,
});

describe("readClaudeSession on every recorded fixture, against the cell's ground truth", () => {
  it("has fixtures of at least four versions: a 1.0.x, a 2.0.x and two 2.1.x", () => {
    const versions = new Set(runs.map((r) => r.version));
    expect(versions.size).toBeGreaterThanOrEqual(4);
    expect([...versions].some((v) => v.startsWith("1.0."))).toBe(true);
    expect([...versions].some((v) => v.startsWith("2.0."))).toBe(true);
    expect([...versions].filter((v) => v.startsWith("2.1.")).length).toBeGreaterThanOrEqual(2);
  });

  for (const run of runs) {
    const truth = run.truth;
    it(`${run.name}: session id, cwd, version, model and final text as the cell saw them`, async () => {
      const s = await readClaudeSession(run.file);
      expect(s.sessionId).toBe(truth.sessionId);
      expect(s.sessionId).toBe(sessionIdOf(run));
      expect(s.cwd).toBe(truth.cwd);
      expect(s.version).toBe(truth.version);
      expect(s.models.at(-1)).toBe(truth.model);
      expect(s.finalText).toBe(truth.finalText);
      expect(s.isSidechain).toBe(false);
      expect(run.meta.sessionPath).toBe(
        `.claude/projects/${claudeProjectSlug(truth.cwd)}/${truth.sessionId}.jsonl`,
      );
    });

    it(`${run.name}: every call the fake issued, in order, ended as the cell shows`, async () => {
      const s = await readClaudeSession(run.file);
      expect(s.calls.map((c) => [c.id, c.name])).toEqual(truth.calls.map((c) => [c.id, c.name]));
      expect(s.calls.map((c) => c.outcome)).toEqual(truth.calls.map((c) => c.outcome));
      // 1.0.x sends back only a failed command's output; 2.0 on start it with `Exit code N`.
      const printsExit = !truth.version.startsWith("1.");
      for (const [i, call] of truth.calls.entries()) {
        if (call.outcome === "error")
          expect(s.calls[i]?.exitCode).toBe(printsExit ? call.exitCode : null);
      }
    });

    it(`${run.name}: the permission mode the argv asked for, where the version records one`, async () => {
      const s = await readClaudeSession(run.file);
      // Recorded on the prompt record from 2.1.17 on.
      if (truth.permissionMode !== null && !/^(0|1|2\.0)\./.test(truth.version))
        expect(s.permissionModes.map((m) => m.mode)).toEqual([truth.permissionMode]);
      if (/^(0|1|2\.0)\./.test(truth.version)) expect(s.permissionModes).toEqual([]);
    });

    it(`${run.name}: reads every line (no drift)`, async () => {
      const s = await readClaudeSession(run.file);
      expect(s.drift.items).toEqual([]);
      const counted = Object.values(s.recordCounts).reduce((a, b) => a + b, 0);
      expect(counted).toBe(s.lineCount);
    });

    for (const side of run.sidechains) {
      it(`${run.name}: its sidechain ${side.split("/").at(-1)} says it is one`, async () => {
        const s = await readClaudeSession(side);
        expect(s.isSidechain).toBe(true);
        expect(s.sessionId).toBe(truth.sessionId);
        expect(s.agentId).not.toBeNull();
      });
    }
  }

  for (const run of recorded("claude-code", "text")) {
    it(`${run.name}: finds the planted CLAUDE.md marker where the version copies it (2.1.282+)`, async () => {
      const marker = "Project memory";
      const s = await readClaudeSession(run.file, { markers: [marker, "WITNESS-NOT-THERE"] });
      const copies = /^2\.1\.(2[89]\d|[3-9]\d\d)$/.test(run.version);
      expect(s.markersSeen).toEqual(copies ? [marker] : []);
      // The same versions list the memory files they loaded, with their content.
      expect(s.instructions.map((i) => [i.type, i.path])).toEqual(
        copies ? [["Project", `${run.truth.cwd}/CLAUDE.md`]] : [],
      );
      if (copies) expect(s.instructions[0]?.content).toContain(marker);
      if (copies) expect(s.skillListings.length).toBeGreaterThan(0);
    });
  }
});

describe("readClaudeSession on hand-made sessions", () => {
  it("joins each tool_use with its tool_result and keeps the model's order", async () => {
    const s = await session("order.jsonl", [
      prompt("default"),
      toolUse("t1", "Write", { file_path: "/w/a", content: "x" }),
      toolUse("t2", "Bash", { command: "touch /w/b" }),
      toolResult("t2", "This command requires approval", true),
      toolResult("t1", "File created successfully at: /w/a", false),
    ]);
    expect(s.calls.map((c) => [c.id, c.name, c.inputSummary, c.outcome])).toEqual([
      ["t1", "Write", "file_path: /w/a", "ran"],
      ["t2", "Bash", "command: touch /w/b", "denied"],
    ]);
    expect(s.calls[1]).toMatchObject({ line: 3, resultLine: 4, isError: true });
  });

  it("records every turn's permission mode, not only the last", async () => {
    const s = await session("modes.jsonl", [
      prompt("default"),
      prompt("acceptEdits"),
      prompt("bypassPermissions"),
    ]);
    expect(s.permissionModes).toEqual([
      { line: 1, mode: "default" },
      { line: 2, mode: "acceptEdits" },
      { line: 3, mode: "bypassPermissions" },
    ]);
    expect(s.permissionMode).toBe("bypassPermissions");
  });

  it("counts each assistant message's usage once, however many records it spans, and joins its text", async () => {
    const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2 };
    const text = (id: string, t: string) => ({
      type: "assistant",
      message: { id, model: "claude-x", usage, content: [{ type: "text", text: t }] },
    });
    const s = await session("usage.jsonl", [
      prompt(),
      text("m1", "first"),
      text("m2", "last"),
      text("m2", "part"),
    ]);
    expect(s.usage).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      cachedInputTokens: 4,
      cacheCreationInputTokens: 0,
    });
    expect(s.finalText).toBe("last\npart");
    expect(s.models).toEqual(["claude-x"]);
  });

  it("reports unknown record, attachment and block types and missing fields with their lines", async () => {
    const s = await session("drift.jsonl", [
      prompt(),
      { type: "summary", summary: "x" },
      { type: "attachment", attachment: { type: "brand_new_kind" } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t9", input: {} }] } },
      { type: "assistant", message: { content: [{ type: "server_tool_use", id: "s" }] } },
      toolResult("nobody", "x", false),
      { type: "user" },
    ]);
    expect(s.drift.items.map((i) => [i.line, i.kind, i.subject])).toEqual([
      [2, "unknown-record", "summary"],
      [3, "unknown-payload", "attachment/brand_new_kind"],
      [4, "missing-field", "assistant/tool_use"],
      [5, "unknown-payload", "assistant/server_tool_use"],
      [6, "missing-field", "user/tool_result"],
      [7, "missing-field", "user"],
    ]);
    expect(s.drift.items[2]?.detail).toBe("name: missing");
    expect(s.calls).toEqual([]);
  });

  it("reads the first line behind a byte-order mark", async () => {
    const s = await session("bom.jsonl", [prompt("plan")], "\uFEFF");
    expect(s.permissionModes).toEqual([{ line: 1, mode: "plan" }]);
    expect(s.drift.items).toEqual([]);
  });

  it("keeps a one-line summary of an input, never the input itself", async () => {
    const s = await session("large.jsonl", [
      toolUse("t1", "Write", { file_path: "/w/a", content: "x".repeat(5000) }),
      toolUse("t2", "Bash", { command: "printf 'a\\n'\nls -la" }, "m2"),
      toolUse("t3", "Custom", { z: "y".repeat(400) }, "m3"),
    ]);
    expect(s.calls.map((c) => c.inputSummary)).toEqual([
      "file_path: /w/a",
      "command: printf 'a\\n' ⏎ ls -la",
      `{"z":"${"y".repeat(193)}…`,
    ]);
    expect(s.calls.every((c) => !("input" in c))).toBe(true);
  });
});

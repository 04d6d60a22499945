import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { FIXTURES_DIR } from "../test/support/recorded-transcripts.js";
import { newestPiSession, piAgentDir, readPiSession } from "./pi-session.js";

const FIXTURE = join(FIXTURES_DIR, "pi-0.73.1-tools", "session.jsonl");

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});
async function tempDir(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "witness-pi-session-"));
  return dir;
}

describe("reading a recorded pi 0.73.1 session", () => {
  it("reads the header, the model, each tool call and the result pi sent back with its error flag", async () => {
    const s = await readPiSession(FIXTURE, { markers: ["WROTE", "NEVER-WRITTEN-MARKER"] });
    expect(s.header).toMatchObject({ version: 3 });
    expect(s.header?.cwd).toMatch(/\/ws$/);
    expect(s.models).toEqual([{ provider: "witness", modelId: "fake-model" }]);
    expect(s.toolCalls.map((c) => [c.id, c.name])).toEqual([
      ["call_w0_0", "bash"],
      ["call_w0_1", "write"],
      ["call_w0_2", "bash"],
      ["call_w0_3", "no_such_tool"],
    ]);
    expect(s.toolCalls[0]?.arguments.command).toMatch(/^touch .*\/sentinels\/RAN$/);
    expect(s.toolResults.map((r) => [r.toolCallId, r.isError])).toEqual([
      ["call_w0_0", false],
      ["call_w0_1", false],
      ["call_w0_2", true],
      ["call_w0_3", true],
    ]);
    expect(s.toolResults[2]?.text).toContain("Command exited with code 3");
    expect(s.toolResults[3]?.text).toBe("Tool no_such_tool not found");
    expect(s.roleCounts).toEqual({ user: 1, assistant: 2, toolResult: 4 });
    expect(s.unknownRecords).toEqual([]);
    expect(s.drift.items).toEqual([]);
    expect(s.markersSeen).toEqual(["WROTE"]);
    expect(s.finalText).toBe("done");
  });

  it("reads pi 1.6.0's session alike: a system message first, the write's new wording, nothing unknown", async () => {
    const file = join(FIXTURES_DIR, "pi-1.6.0-tools", "session.jsonl");
    const s = await readPiSession(file);
    expect(s.roleCounts).toEqual({ system: 1, user: 1, assistant: 2, toolResult: 4 });
    expect(s.toolResults.map((r) => [r.toolCallId, r.isError])).toEqual([
      ["call_w0_0", false],
      ["call_w0_1", false],
      ["call_w0_2", true],
      ["call_w0_3", true],
    ]);
    expect(s.toolResults[1]?.text).toMatch(/^Successfully wrote to .*\/sentinels\/WROTE$/);
    expect(s.unknownRecords).toEqual([]);
    expect(s.drift.items).toEqual([]);
    expect(s.finalText).toBe("done");
  });

  it.each(["usage", "context_edit", "custom_message", "session_info"])(
    "knows pi's %s entries (never reported as drift)",
    async (type) => {
      const file = join(await tempDir(), "s.jsonl");
      await writeFile(file, `${JSON.stringify({ type, id: "a", parentId: null })}\n`);
      const s = await readPiSession(file);
      expect(s.unknownRecords).toEqual([]);
      expect(s.recordCounts).toEqual({ [type]: 1 });
    },
  );

  it("keeps an unknown line type, and reports a bad line and a message that does not fit, without throwing", async () => {
    const file = join(await tempDir(), "s.jsonl");
    const lines = [
      JSON.stringify({ type: "session", id: "s1", version: 3, cwd: "/w" }),
      JSON.stringify({ type: "future_thing", id: "x" }),
      "{not json",
      JSON.stringify({
        type: "message",
        message: { role: "toolResult", content: [{ type: "text", text: "t" }] },
      }),
      JSON.stringify({ type: "message", message: { role: "user" } }),
    ];
    await writeFile(file, `${lines.join("\n")}\n`);
    const s = await readPiSession(file);
    expect(s.header).toEqual({ id: "s1", cwd: "/w", version: 3 });
    expect(s.unknownRecords).toMatchObject([{ line: 2, type: "future_thing" }]);
    expect(s.drift.items.map((d) => [d.line, d.kind])).toEqual([
      [2, "unknown-record"],
      [3, "not-json"],
      [4, "missing-field"],
      [5, "missing-field"],
    ]);
    expect(s.drift.items[2]).toMatchObject({ subject: "message/toolResult" });
    expect(s.drift.items[2]?.detail).toMatch(/toolCallId/);
    expect(s.lineCount).toBe(5);
  });
});

describe("finding pi's session", () => {
  it("uses PI_CODING_AGENT_DIR, else ~/.pi/agent", () => {
    expect(piAgentDir({ PI_CODING_AGENT_DIR: "/a", HOME: "/h" })).toBe("/a");
    expect(piAgentDir({ HOME: "/h" })).toBe("/h/.pi/agent");
    expect(piAgentDir({})).toBeNull();
  });

  it("picks the most recently written session file across the per-cwd folders", async () => {
    const agent = await tempDir();
    const older = join(agent, "sessions", "--a--", "1.jsonl");
    const newer = join(agent, "sessions", "--b--", "2.jsonl");
    for (const file of [older, newer]) {
      await mkdir(join(file, ".."), { recursive: true });
      await writeFile(file, "{}\n");
    }
    await writeFile(join(agent, "sessions", "--b--", "notes.txt"), "not a session");
    await utimes(older, new Date(2000, 1, 1), new Date(2000, 1, 1));
    expect(await newestPiSession(agent)).toBe(newer);
    expect(await newestPiSession(join(agent, "nothing"))).toBeNull();
  });
});

import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { geminiHomeDir, newestGeminiChat, readGeminiChat } from "./gemini-chat.js";

const fixture = (scenario: string) =>
  join(import.meta.dirname, "test", "fixtures", `gemini-0.61.0-${scenario}`, "chat.jsonl");

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe("Gemini CLI chat files (recorded from gemini 0.61.0)", () => {
  it("reads the session id, each message once, and both tool calls of a yolo run as success", async () => {
    const chat = await readGeminiChat(fixture("yolo"), { markers: ["<session_context>"] });
    expect(chat.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.drift.items).toEqual([]);
    expect(chat.toolCalls.map((c) => [c.id, c.name, c.status])).toEqual([
      ["run_shell_command__call_w0_0", "run_shell_command", "success"],
      ["write_file__call_w0_1", "write_file", "success"],
    ]);
    // The model turn is written twice (before and after its tools ran): kept once, the last copy.
    const ids = chat.messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(chat.messages.map((m) => m.type)).toEqual(["user", "user", "gemini", "user", "gemini"]);
    expect(chat.recordCounts).toMatchObject({ header: 1, "message:gemini": 3 });
    expect(chat.markersSeen).toEqual(["<session_context>"]);
  });

  it("records a refused write and an unknown tool as error, a shell exiting 3 as success", async () => {
    const chat = await readGeminiChat(fixture("yolo-errors"));
    expect(chat.toolCalls.map((c) => [c.name, c.status])).toEqual([
      ["run_shell_command", "success"],
      ["write_file", "error"],
      ["no_such_tool", "error"],
    ]);
    expect(JSON.stringify(chat.toolCalls[1]?.result)).toContain("Path not in workspace");
  });

  it("records the default mode's absent tools as errors", async () => {
    const chat = await readGeminiChat(fixture("default"));
    expect(chat.toolCalls.map((c) => c.status)).toEqual(["error", "error"]);
    expect(JSON.stringify(chat.toolCalls[0]?.result)).toContain(
      'Tool \\"run_shell_command\\" not found',
    );
  });

  it("keeps unknown lines counted and reports a line that is not JSON, without failing", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-gemini-chat-"));
    const file = join(dir, "chat.jsonl");
    await writeFile(
      file,
      [
        '{"sessionId":"s1","startTime":"t","kind":"main"}',
        '{"something":"else"}',
        "not json",
        '{"id":7,"type":"user"}',
        '{"id":"a","type":"info","content":"x"}',
      ].join("\n"),
    );
    const chat = await readGeminiChat(file);
    expect(chat.sessionId).toBe("s1");
    expect(chat.recordCounts).toMatchObject({ unknown: 1, "message:info": 1 });
    expect(chat.drift.items.map((i) => [i.line, i.kind])).toEqual([
      [2, "unknown-record"],
      [3, "not-json"],
      [4, "missing-field"],
    ]);
  });

  it("finds the newest chat under GEMINI_CLI_HOME, else HOME", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-gemini-home-"));
    expect(await newestGeminiChat(dir)).toBeNull();
    const chats = (project: string) => join(dir ?? "", ".gemini", "tmp", project, "chats");
    await mkdir(chats("a"), { recursive: true });
    await mkdir(chats("b"), { recursive: true });
    await writeFile(join(chats("a"), "session-old.jsonl"), "");
    await writeFile(join(chats("b"), "session-new.jsonl"), "");
    await writeFile(join(chats("b"), "notes.txt"), "");
    await utimes(join(chats("a"), "session-old.jsonl"), new Date(1000), new Date(1000));
    expect(await newestGeminiChat(dir)).toBe(join(chats("b"), "session-new.jsonl"));
    expect(geminiHomeDir({ HOME: "/h", GEMINI_CLI_HOME: "/g" })).toBe("/g");
    expect(geminiHomeDir({ HOME: "/h" })).toBe("/h");
    expect(geminiHomeDir({})).toBeNull();
  });
});

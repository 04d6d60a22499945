import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { newestQwenChat, qwenRuntimeDir, readQwenChat } from "./qwen-chat.js";

const fixture = (scenario: string) =>
  join(import.meta.dirname, "test", "fixtures", `qwen-0.24.4-${scenario}`, "chat.jsonl");

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe("Qwen Code chat files (recorded from qwen 0.24.4)", () => {
  it("reads the default mode's declined calls: not started, execution_denied, no approval decision", async () => {
    const chat = await readQwenChat(fixture("default"));
    expect(chat.version).toBe("0.24.4");
    expect(chat.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.drift.items).toEqual([]);
    expect(chat.unknownRecords).toEqual([]);
    const declined =
      /^Qwen Code requires permission to use "(run_shell_command|write_file)", but that permission was declined/;
    for (const call of chat.toolCalls) expect(call.resultExcerpt).toMatch(declined);
    expect(chat.toolCalls.map(({ resultExcerpt: _, ...call }) => call)).toEqual([
      {
        callId: "call_w0_0",
        line: 7,
        name: "run_shell_command",
        status: "error",
        errorType: "execution_denied",
        executionStatus: "not_started",
        decision: null,
        args: { command: "touch /tmp/witness-cell-FIXTURE/sentinels/RAN" },
        exitCode: null,
      },
      {
        callId: "call_w0_1",
        line: 8,
        name: "write_file",
        status: "error",
        errorType: "execution_denied",
        executionStatus: "not_started",
        decision: null,
        args: {
          file_path: "/tmp/witness-cell-FIXTURE/outside/grand/parent/ws/.witness-sentinels/WROTE",
          content: "hi\n",
        },
        exitCode: null,
      },
    ]);
    expect([chat.cwd, chat.models, chat.finalText]).toEqual([
      "/tmp/witness-cell-FIXTURE/outside/grand/parent/ws",
      ["witness-fake-model"],
      "done",
    ]);
    expect(chat.recordCounts).toMatchObject({ user: 1, assistant: 2, tool_result: 2 });
  });

  it("reads yolo's calls: one ran (auto_accept), one failed its shell, one was not registered", async () => {
    const chat = await readQwenChat(fixture("yolo-errors"));
    expect(
      chat.toolCalls.map((c) => [c.callId, c.errorType, c.executionStatus, c.decision]),
    ).toEqual([
      ["call_w0_0", null, "success", "auto_accept"],
      ["call_w0_1", "shell_execute_error", "error", "auto_accept"],
      ["call_w0_2", "tool_not_registered", "not_started", null],
    ]);
  });

  it("keeps records of unknown types counted and reports broken lines, without failing", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-qwen-chat-"));
    const file = join(dir, "chat.jsonl");
    await writeFile(
      file,
      [
        '{"type":"user","sessionId":"s1","version":"9.9.9"}',
        '{"type":"brand_new"}',
        "{oops",
        '{"type":"tool_result","toolCallResult":{"status":"error"}}',
        '{"type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response"}}}',
      ].join("\n"),
    );
    const chat = await readQwenChat(file);
    expect([chat.sessionId, chat.version]).toEqual(["s1", "9.9.9"]);
    expect(chat.unknownRecords).toEqual([{ line: 2, type: "brand_new" }]);
    expect(chat.drift.items.map((i) => [i.line, i.kind])).toEqual([
      [2, "unknown-record"],
      [3, "not-json"],
      [4, "missing-field"],
    ]);
    expect(chat.toolCalls).toEqual([]);
    expect(chat.recordCounts).toMatchObject({ "system:ui_telemetry": 1, brand_new: 1 });
  });

  it("finds the newest chat under QWEN_RUNTIME_DIR, QWEN_HOME, else HOME/.qwen", async () => {
    dir = await mkdtemp(join(tmpdir(), "witness-qwen-home-"));
    const chats = (slug: string) => join(dir ?? "", "projects", slug, "chats");
    expect(await newestQwenChat(dir)).toBeNull();
    await mkdir(chats("a"), { recursive: true });
    await mkdir(chats("b"), { recursive: true });
    await writeFile(join(chats("a"), "old.jsonl"), "");
    await writeFile(join(chats("b"), "new.jsonl"), "");
    await utimes(join(chats("a"), "old.jsonl"), new Date(1000), new Date(1000));
    expect(await newestQwenChat(dir)).toBe(join(chats("b"), "new.jsonl"));
    expect(qwenRuntimeDir({ HOME: "/h", QWEN_HOME: "/q", QWEN_RUNTIME_DIR: "/r" })).toBe("/r");
    expect(qwenRuntimeDir({ HOME: "/h", QWEN_HOME: "/q" })).toBe("/q");
    expect(qwenRuntimeDir({ HOME: "/h" })).toBe("/h/.qwen");
    expect(qwenRuntimeDir({})).toBeNull();
  });
});

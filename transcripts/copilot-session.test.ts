import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { copilotRecorded, readCopilotSession } from "./copilot-session.js";

let dir = "";
afterEach(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

async function session(lines: unknown[]): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "witness-copilot-session-"));
  const path = join(dir, "events.jsonl");
  const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");
  await writeFile(path, `${text}\n`);
  return path;
}

const call = (id: string, name: string) => ({
  type: "assistant.message",
  data: { content: "", toolRequests: [{ toolCallId: id, name, arguments: { command: "x" } }] },
});

describe("readCopilotSession", () => {
  it("joins each call's request, permission decision and completion", async () => {
    const path = await session([
      {
        type: "session.start",
        data: { sessionId: "s1", copilotVersion: "1.0.102", context: { cwd: "/w" } },
      },
      call("c1", "bash"),
      { type: "permission.completed", data: { toolCallId: "c1", result: { kind: "denied-x" } } },
      {
        type: "tool.execution_complete",
        data: {
          toolCallId: "c1",
          success: false,
          error: { message: "Permission denied", code: "denied" },
        },
      },
      call("c2", "bash"),
      {
        type: "tool.execution_complete",
        data: {
          toolCallId: "c2",
          success: true,
          result: { content: "ok" },
          shellExecution: { exitCode: 4 },
        },
      },
      { type: "assistant.message", data: { content: "done", model: "m" } },
    ]);
    const s = await readCopilotSession(path);
    expect([s.sessionId, s.version, s.cwd, s.finalText, s.models]).toEqual([
      "s1",
      "1.0.102",
      "/w",
      "done",
      ["m"],
    ]);
    expect(s.toolCalls.map(copilotRecorded)).toEqual([
      {
        decision: "denied-x",
        errorType: "denied",
        status: "failure",
        exitCode: null,
        result: { isError: true, text: "Permission denied" },
      },
      {
        decision: null,
        errorType: null,
        status: "success",
        exitCode: 4,
        result: { isError: false, text: "ok" },
      },
    ]);
    expect(s.drift.items).toEqual([]);
  });

  it("notes an unknown event type, a line that is not JSON and a misshapen record as drift, never throws", async () => {
    const path = await session([
      { type: "session.brand_new", data: {} },
      "{not json",
      { type: "tool.execution_complete", data: { toolCallId: "c9" } },
      { type: "assistant.message", data: { content: "done" } },
    ]);
    const s = await readCopilotSession(path);
    expect(s.drift.items.map((i) => i.kind)).toEqual([
      "unknown-record",
      "not-json",
      "missing-field",
    ]);
    expect(s.finalText).toBe("done");
  });
});

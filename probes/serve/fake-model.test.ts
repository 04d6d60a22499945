import { afterEach, describe, expect, it, vi } from "vitest";

import { InputError } from "../../core/errors.js";
import type { CapturedRequest } from "../fake/server.js";
import { type Fake, startFake } from "./fake-model.js";

let fake: Fake | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const shellTurn = { turns: [{ calls: [{ shell: "touch {{sentinel:ran}}" }] }], final: "done" };

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${fake?.url ?? ""}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

const chat = { model: "m", messages: [{ role: "user", content: "go" }] };

function chatCall(reply: Record<string, unknown>): { name: string; arguments: string } {
  const choices = reply.choices as { message: { tool_calls: { function: never }[] } }[];
  return choices[0]?.message.tool_calls[0]?.function ?? { name: "", arguments: "" };
}

describe("startFake", () => {
  it("names a scripted shell call as the CLI on the path prefix names its shell tool", async () => {
    fake = await startFake({ script: shellTurn, sentinelDir: "/tmp/sentinels" });
    expect(chatCall(await post("/qwen/v1/chat/completions", chat)).name).toBe("run_shell_command");
    expect(chatCall(await post("/pi/v1/chat/completions", chat)).name).toBe("bash");
    const claude = await post("/claude-code/v1/messages", { ...chat, stream: false });
    expect(claude.content).toEqual([
      expect.objectContaining({
        type: "tool_use",
        name: "Bash",
        input: expect.objectContaining({ command: "touch /tmp/sentinels/ran" }) as unknown,
      }),
    ]);
  });

  it("serves a path without a prefix by the first CLI whose API has it", async () => {
    fake = await startFake({ script: { turns: [{ text: "hello" }] } });
    const reply = await post("/v1/messages", { ...chat, stream: false });
    expect(reply.content).toEqual([{ type: "text", text: "hello" }]);
    expect(fake.requests.map((r) => [r.path, r.answer])).toEqual([["/v1/messages", "turn:0"]]);
  });

  it("hands each request to onRequest in arrival order, and close waits for the last", async () => {
    const seen: CapturedRequest[] = [];
    fake = await startFake({
      script: {},
      onRequest: async (r) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen.push(r);
      },
    });
    await post("/qwen/v1/chat/completions", chat);
    // As it arrives, not only at close.
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await post("/nowhere", {});
    await fake.close();
    fake = null;
    expect(seen.map((r) => [r.path, r.answer])).toEqual([
      ["/qwen/v1/chat/completions", "final"],
      ["/nowhere", "not-found"],
    ]);
  });

  it("refuses a script that is not one, naming the field", async () => {
    const bad = startFake({ script: { turns: [{ say: "x" }] } as never });
    await expect(bad).rejects.toThrow(InputError);
    await expect(bad).rejects.toThrow(/^script: turns\.0/);
  });
});

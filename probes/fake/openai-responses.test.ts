import { afterEach, describe, expect, it } from "vitest";

import { type Script, scriptSchema } from "../contracts/script.js";
import { codexDriver } from "../drivers/codex.js";
import { execProgram, openaiResponses, openaiTurnIndex } from "./openai-responses.js";
import { type FakeServer, startFakeServer } from "./server.js";

let server: FakeServer | null = null;
/** The current server's captured requests (a function, so TypeScript does not narrow `server`). */
const requests = () => server?.requests ?? [];
/** Stops the current server so the next request starts one with a new script. */
async function reset(): Promise<void> {
  await server?.close();
  server = null;
}
afterEach(reset);

function dataLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

async function post(script: Partial<Script>, body: unknown, path = "/v1/responses") {
  server ??= await startFakeServer(
    openaiResponses.responder(scriptSchema.parse(script), codexDriver.naming),
  );
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: "Bearer sk-secret-openai" },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

const prompt = { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] };

describe("the fake OpenAI Responses server", () => {
  it("streams a text turn as an output item and response.completed", async () => {
    const res = await post({ final: "all done" }, { input: [prompt] });
    expect(res.type).toBe("text/event-stream");
    expect(dataLines(res.text)).toEqual([
      {
        type: "response.output_item.done",
        item: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "all done" }],
        },
      },
      { type: "response.completed", response: { id: "resp_witness" } },
    ]);
  });

  it("sends a shell command as Codex's exec custom tool running tools.exec_command", async () => {
    const cmd = `touch "/tmp/a b/S" && echo 'ok'`;
    const [call, done] = dataLines(
      (await post({ turns: [{ calls: [{ shell: cmd }] }] }, { input: [prompt] })).text,
    );
    expect(call?.item).toEqual({
      type: "custom_tool_call",
      call_id: "call_w0_0",
      name: "exec",
      status: "completed",
      input: execProgram(cmd),
    });
    expect(execProgram(cmd)).toContain(`tools.exec_command({cmd: ${JSON.stringify(cmd)}})`);
    expect(done?.type).toBe("response.completed");
  });

  it("sends any other tool as a function call with JSON arguments", async () => {
    const [call] = dataLines(
      (
        await post(
          { turns: [{ calls: [{ tool: "spawn_agent", input: { task: "t" } }] }] },
          { input: [prompt] },
        )
      ).text,
    );
    expect(call?.item).toMatchObject({
      type: "function_call",
      name: "spawn_agent",
      arguments: '{"task":"t"}',
    });
  });

  it("picks the turn from the calls and assistant messages already in input", async () => {
    const output = (id: string) => ({ type: "custom_tool_call_output", call_id: id, output: "r" });
    const call = (id: string) => ({
      type: "custom_tool_call",
      call_id: id,
      name: "exec",
      input: "x",
    });
    // The fake knows which turn each id it issued belongs to; an id it never issued counts alone.
    const issued = new Map([
      ["call_w0_0", 0],
      ["call_w0_1", 0],
      ["call_w1_0", 1],
    ]);
    expect(openaiTurnIndex({ input: [prompt] }, issued)).toBe(0);
    // Two calls of one turn count once.
    expect(
      openaiTurnIndex(
        {
          input: [
            prompt,
            call("call_w0_0"),
            call("call_w0_1"),
            output("call_w0_0"),
            output("call_w0_1"),
          ],
        },
        issued,
      ),
    ).toBe(1);
    expect(
      openaiTurnIndex(
        {
          input: [
            prompt,
            call("call_w0_0"),
            output("call_w0_0"),
            call("call_w1_0"),
            output("call_w1_0"),
          ],
        },
        issued,
      ),
    ).toBe(2);
    expect(
      openaiTurnIndex(
        {
          input: [prompt, { type: "message", role: "assistant", content: [] }, prompt],
        },
        issued,
      ),
    ).toBe(1);
    expect(openaiTurnIndex({ input: [prompt, call("x1"), call("x2"), output("x1")] }, issued)).toBe(
      2,
    );
    const script = { turns: [{ calls: [{ shell: "true" }] }, { text: "second" }], final: "end" };
    await post(script, { input: [prompt] });
    const second = dataLines(
      (await post(script, { input: [prompt, call("call_w0_0"), output("call_w0_0")] })).text,
    );
    expect(JSON.stringify(second[0])).toContain("second");
    expect(requests().map((r) => r.answer)).toEqual(["turn:0", "turn:1"]);
  });

  it("records a request to any other path as a 404 and redacts the bearer token", async () => {
    const res = await post({}, null, "/v1/models");
    expect(res.status).toBe(404);
    expect(requests()[0]).toMatchObject({
      path: "/v1/models",
      answer: "not-found",
      body: null,
    });
    expect(requests()[0]?.headers.authorization).toMatch(/^<redacted:\d+>$/);
  });

  it("plays a scripted status and a stream cut before response.completed", async () => {
    expect((await post({ turns: [{ fault: { status: 500 } }] }, { input: [prompt] })).status).toBe(
      500,
    );
    await reset();
    const cut = await post({ turns: [{ fault: { truncate: true } }] }, { input: [prompt] }).catch(
      (e: unknown) => ({ text: String(e) }),
    );
    expect(cut.text).not.toContain("response.completed");
  });
});

import { afterEach, describe, expect, it } from "vitest";

import { type Script, scriptSchema } from "../contracts/script.js";
import { claudeCodeDriver } from "../drivers/claude-code.js";
import {
  anthropicMessages,
  anthropicTurnIndex,
  isClassifierRequest,
} from "./anthropic-messages.js";
import { type CapturedRequest, type FakeServer, startFakeServer } from "./server.js";

let server: FakeServer | null = null;
/** The current server's captured requests (a function, so TypeScript does not narrow `server`). */
const requests = () => server?.requests ?? [];
/** Stops the current server so the next request starts one with a new script. */
async function reset(): Promise<void> {
  await server?.close();
  server = null;
}
afterEach(reset);

/** Parses an SSE body into `{event, data}` pairs. */
function sse(text: string): { event: string | null; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? null;
      const data = /^data: (.*)$/m.exec(chunk)?.[1] ?? "null";
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

async function post(script: Partial<Script>, body: unknown, path = "/v1/messages?beta=true") {
  server ??= await startFakeServer(
    anthropicMessages.responder(
      scriptSchema.parse(script),
      claudeCodeDriver.naming,
      claudeCodeDriver.helperCall,
    ),
  );
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sk-ant-secret-value" },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

const user = { role: "user", content: "hi" };
const assistant = { role: "assistant", content: [{ type: "text", text: "x" }] };

describe("the fake Anthropic Messages server", () => {
  it("streams a text turn with the named events Claude Code expects, in order", async () => {
    const res = await post(
      { turns: [{ text: "hello there" }] },
      { model: "m1", stream: true, messages: [user] },
    );
    expect(res.type).toBe("text/event-stream");
    const events = sse(res.text);
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events.map((e) => e.data.type)).toEqual(events.map((e) => e.event));
    expect(events[2]?.data.delta).toEqual({ type: "text_delta", text: "hello there" });
    expect((events[0]?.data.message as { model: string }).model).toBe("m1");
    expect((events[4]?.data.delta as { stop_reason: string }).stop_reason).toBe("end_turn");
  });

  it("streams a tool call as tool_use with its input in an input_json_delta", async () => {
    const script = {
      turns: [
        {
          calls: [
            { shell: "touch /x/S" },
            { tool: "Write", input: { file_path: "/x/f", content: "c" } },
          ],
        },
      ],
    };
    const events = sse((await post(script, { stream: true, messages: [user] })).text);
    const starts = events
      .filter((e) => e.event === "content_block_start")
      .map((e) => e.data.content_block);
    expect(starts).toEqual([
      { type: "tool_use", id: "toolu_w0_0", name: "Bash", input: {} },
      { type: "tool_use", id: "toolu_w0_1", name: "Write", input: {} },
    ]);
    const deltas = events
      .filter((e) => e.event === "content_block_delta")
      .map((e) => e.data.delta as { type: string; partial_json: string });
    expect(deltas.map((d) => d.type)).toEqual(["input_json_delta", "input_json_delta"]);
    expect(JSON.parse(deltas[0]?.partial_json ?? "")).toMatchObject({ command: "touch /x/S" });
    expect(JSON.parse(deltas[1]?.partial_json ?? "")).toEqual({ file_path: "/x/f", content: "c" });
    const stop = events.find((e) => e.event === "message_delta")?.data.delta as {
      stop_reason: string;
    };
    expect(stop.stop_reason).toBe("tool_use");
  });

  it("picks the turn by counting the assistant messages already in the request", async () => {
    const script = { turns: [{ text: "first" }, { text: "second" }], final: "the end" };
    const texts: unknown[] = [];
    for (const messages of [
      [user],
      [user, assistant, user],
      [user, assistant, user, assistant, user],
    ]) {
      const events = sse((await post(script, { stream: true, messages })).text);
      texts.push((events[2]?.data.delta as { text: string }).text);
    }
    expect(texts).toEqual(["first", "second", "the end"]);
    expect(requests().map((r) => r.answer)).toEqual(["turn:0", "turn:1", "final"]);
    expect(anthropicTurnIndex({ messages: [user, assistant, user] })).toBe(1);
  });

  it("answers a request without stream as one plain JSON message", async () => {
    const res = await post(
      { turns: [{ calls: [{ tool: "Skill", input: { skill: "s" } }] }] },
      { messages: [user] },
    );
    expect(res.type).toBe("application/json");
    const message = JSON.parse(res.text) as Record<string, unknown>;
    expect(message).toMatchObject({ type: "message", role: "assistant", stop_reason: "tool_use" });
    expect(message.content).toEqual([
      { type: "tool_use", id: "toolu_w0_0", name: "Skill", input: { skill: "s" } },
    ]);
  });

  it("answers the security classifier per the script, whatever turn the agent is on", async () => {
    const system = [{ type: "text", text: "You are a security monitor for autonomous agents." }];
    expect(isClassifierRequest({ system })).toBe(true);
    expect(isClassifierRequest({ system: "You are Claude Code" })).toBe(false);
    const allow = JSON.parse(
      (await post({ classifier: "allow" }, { system, messages: [user] })).text,
    ) as { content: { text: string }[] };
    expect(allow.content[0]?.text).toBe("<block>no</block>");
    await reset();
    const block = JSON.parse(
      (await post({ classifier: "block" }, { system, messages: [user] })).text,
    ) as { content: { text: string }[] };
    expect(block.content[0]?.text).toMatch(/^<block>yes<\/block><reason>.+<\/reason>$/);
    expect(requests()[0]?.answer).toBe("classifier:block");
  });

  it("attaches the server-side safety verdict per tool_use id when the request asks for one", async () => {
    const body = {
      stream: true,
      messages: [user],
      safeguards: [{ type: "dangerous_tool_use", classifier_context: {} }],
    };
    const script = { turns: [{ calls: [{ shell: "touch /x" }] }] };
    const allowed = sse((await post({ ...script, classifier: "allow" }, body)).text);
    const delta = allowed.find((e) => e.event === "message_delta")?.data.delta as Record<
      string,
      unknown
    >;
    expect(delta.safeguard_results).toEqual([
      {
        type: "dangerous_tool_use",
        status: {
          type: "available",
          tool_uses: { toolu_w0_0: { type: "evaluated", outcome: "not_flagged" } },
        },
      },
    ]);
    await reset();
    const blocked = JSON.parse(
      (await post({ ...script, classifier: "block" }, { ...body, stream: false })).text,
    ) as {
      safeguard_results: { status: { tool_uses: Record<string, { outcome: string }> } }[];
    };
    expect(blocked.safeguard_results[0]?.status.tool_uses.toolu_w0_0?.outcome).toBe("flagged");
    await reset();
    const plain = sse((await post(script, { stream: true, messages: [user] })).text);
    expect(plain.find((e) => e.event === "message_delta")?.data.delta).not.toHaveProperty(
      "safeguard_results",
    );
  });

  it("captures every request in order with its body parsed and its key redacted", async () => {
    await post({}, { stream: true, messages: [user] });
    await post({}, { hello: 1 }, "/v1/other");
    const [first, second] = requests() ?? [];
    expect(first).toMatchObject({
      method: "POST",
      path: "/v1/messages?beta=true",
      body: { stream: true },
    });
    expect(first?.headers["x-api-key"]).toBe("<redacted:19>");
    expect(JSON.stringify(requests())).not.toContain("sk-ant-secret-value");
    expect(second).toMatchObject({ path: "/v1/other", answer: "not-found", body: { hello: 1 } });
  });

  it("plays a scripted HTTP status, a truncated stream and a hang", async () => {
    const status = await post(
      { turns: [{ fault: { status: 529 } }] },
      { stream: true, messages: [user] },
    );
    expect(status.status).toBe(529);
    await reset();
    const truncated = await post(
      { turns: [{ fault: { truncate: true } }] },
      { stream: true, messages: [user] },
    ).catch((error: unknown) => ({ status: 0, type: null, text: String(error) }));
    expect(truncated.text).not.toContain("message_stop");
    await reset();
    server = await startFakeServer(
      anthropicMessages.responder(
        scriptSchema.parse({ turns: [{ fault: { hang: true } }] }),
        claudeCodeDriver.naming,
      ),
    );
    const hung = fetch(`${server.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ stream: true, messages: [user] }),
    })
      .then((r) => r.text())
      .then(
        () => "finished",
        () => "cut",
      );
    const winner = await Promise.race([
      hung,
      new Promise((r) => setTimeout(() => r("still hanging"), 300)),
    ]);
    expect(winner).toBe("still hanging");
    await server.close();
    server = null;
    expect(await hung).toBe("cut");
  });

  it("answers a Warmup with text, never the script's call, and keeps it out of the agent's turns", async () => {
    const script = { turns: [{ calls: [{ shell: "touch /w/S" }] }] };
    const warmup = { stream: true, messages: [{ role: "user", content: "Warmup" }] };
    const res = await post(script, warmup);
    expect(res.text).toContain("text_delta");
    expect(res.text).not.toContain("tool_use");
    // The agent still gets turn 0's call, and only the agent's requests hold its results.
    await post(script, { stream: true, messages: [user] });
    const echo = {
      stream: true,
      messages: [
        { role: "user", content: "Warmup" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_w0_0", name: "Bash" }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_w0_0", content: "Warmup", is_error: true },
          ],
        },
      ],
    };
    await post(script, echo);
    const [first, second] = requests();
    expect(first?.answer).toBe("helper:warmup");
    expect(second?.answer).toBe("turn:0");
    expect(anthropicMessages.isAgentRequest(first as CapturedRequest)).toBe(false);
    expect(anthropicMessages.findResult(requests().slice(0, 1), "toolu_w0_0")).toBeNull();
  });
});

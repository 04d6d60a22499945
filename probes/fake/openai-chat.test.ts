import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";

import { type Script, scriptSchema } from "../contracts/script.js";
import {
  chatTurnIndex,
  createOpenaiChat,
  openaiChat,
  OPENCODE_TITLE,
  splitArguments,
} from "./openai-chat.js";
import { type FakeServer, startFakeServer } from "./server.js";
import type { CallNaming } from "./wire.js";

// A pi-like naming: the shell goes to `bash`, anything else keeps its name.
const naming: CallNaming = (call) =>
  "shell" in call
    ? { name: "bash", input: { command: call.shell } }
    : { name: call.tool, input: call.input };

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(script: Partial<Script>, wire = openaiChat): Promise<OpenAI> {
  server = await startFakeServer(wire.responder(scriptSchema.parse(script), naming));
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "sk-witness-test", maxRetries: 0 });
}
const requests = () => server?.requests ?? [];

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: "function", function: { name: "bash", parameters: { type: "object" } } },
  { type: "function", function: { name: "write", parameters: { type: "object" } } },
];
const system = { role: "system" as const, content: "You are pi. Rules: MARK-SYS" };
const user = { role: "user" as const, content: "go MARK-USER" };

describe("the fake Chat Completions server, read by the openai client library", () => {
  it("streams a tool-call turn the client's stream helper assembles: ids, names, whole JSON arguments", async () => {
    const command = `touch "/tmp/a b/RAN" && echo 'ok'`;
    const client = await serve({
      turns: [
        {
          calls: [
            { shell: command },
            { tool: "write", input: { path: "/tmp/W", content: "hello\n" } },
          ],
        },
      ],
    });
    const stream = client.chat.completions.stream({
      model: "fake-model",
      messages: [system, user],
      tools,
      stream_options: { include_usage: true },
    });
    const done = await stream.finalChatCompletion();
    const choice = done.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(
      choice?.message.tool_calls?.map(
        (c) => c.type === "function" && [c.id, c.function.name, JSON.parse(c.function.arguments)],
      ),
    ).toEqual([
      ["call_w0_0", "bash", { command }],
      ["call_w0_1", "write", { path: "/tmp/W", content: "hello\n" }],
    ]);
    expect(done.usage?.total_tokens).toBe(15);
    expect(requests()[0]?.issued?.map((c) => c.id)).toEqual(["call_w0_0", "call_w0_1"]);
  });

  it("sends each call's arguments over several chunks, after a chunk that names the call", async () => {
    const client = await serve({ turns: [{ calls: [{ shell: "echo a-long-enough-command" }] }] });
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [user],
      tools,
      stream: true,
    });
    const deltas: string[] = [];
    let sawName = false;
    let sawUsage = false;
    for await (const event of stream) {
      if (event.usage) sawUsage = true;
      for (const call of event.choices[0]?.delta.tool_calls ?? []) {
        if (call.function?.name === "bash") sawName = call.id === "call_w0_0";
        else if (call.function?.arguments !== undefined) deltas.push(call.function.arguments);
      }
    }
    expect(sawName).toBe(true);
    expect(sawUsage).toBe(true);
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.join(""))).toEqual({ command: "echo a-long-enough-command" });
  });

  it("streams the final text once the script's turns are used up, and answers a non-streamed request too", async () => {
    const client = await serve({ final: "WITNESS-FINAL-TEXT" });
    const streamed = await client.chat.completions
      .stream({ model: "m", messages: [user] })
      .finalContent();
    expect(streamed).toBe("WITNESS-FINAL-TEXT");
    const plain = await client.chat.completions.create({ model: "m", messages: [user] });
    expect(plain.choices[0]?.message.content).toBe("WITNESS-FINAL-TEXT");
    expect(requests().map((r) => r.answer)).toEqual(["final", "final"]);
  });

  it("picks the turn by the assistant messages already in the request", async () => {
    const client = await serve({
      turns: [{ calls: [{ shell: "true" }] }, { text: "second" }],
      final: "third",
    });
    const assistant = {
      role: "assistant" as const,
      content: null,
      tool_calls: [
        { id: "call_w0_0", type: "function" as const, function: { name: "bash", arguments: "{}" } },
      ],
    };
    const toolMessage = {
      role: "tool" as const,
      tool_call_id: "call_w0_0",
      content: "(no output)",
    };
    const second = await client.chat.completions
      .stream({ model: "m", messages: [user, assistant, toolMessage] })
      .finalContent();
    expect(second).toBe("second");
    expect(requests().map((r) => r.answer)).toEqual(["turn:1"]);
    expect(
      chatTurnIndex({
        messages: [user, assistant, toolMessage, { role: "assistant", content: "x" }],
      }),
    ).toBe(2);
  });

  it("plays a scripted 5xx as an error status the client reports, and a cut stream that ends without a finish_reason", async () => {
    const client = await serve({ turns: [{ fault: { status: 503 } }] });
    await expect(
      client.chat.completions.create({ model: "m", messages: [user] }),
    ).rejects.toMatchObject({
      status: 503,
    });
    await server?.close();
    const cut = await serve({ turns: [{ fault: { truncate: true } }] });
    const finishes: (string | null)[] = [];
    const read = async () => {
      const stream = await cut.chat.completions.create({
        model: "m",
        messages: [user],
        stream: true,
      });
      for await (const event of stream) finishes.push(event.choices[0]?.finish_reason ?? null);
    };
    // The connection is cut mid-stream: the client sees a head without any finish_reason.
    await expect(read()).rejects.toThrow();
    expect(finishes.length).toBeGreaterThan(0);
    expect(finishes.every((f) => f === null)).toBe(true);
  });

  it("answers opencode's title call with text and no turn, and does not count it as an agent request", async () => {
    const client = await serve({ turns: [{ calls: [{ shell: "true" }] }] });
    const title = await client.chat.completions
      .stream({
        model: "m",
        messages: [
          { role: "system", content: `${OPENCODE_TITLE.systemPrefix}. You output ONLY a title` },
          user,
        ],
      })
      .finalContent();
    expect(title).toBe(OPENCODE_TITLE.text);
    const captured = requests()[0];
    expect(captured?.answer).toBe("helper:title");
    expect(captured && openaiChat.isAgentRequest(captured)).toBe(false);
    // Without the side request declared, the same call would take turn 0.
    await server?.close();
    const plain = await serve({ turns: [{ calls: [{ shell: "true" }] }] }, createOpenaiChat());
    await plain.chat.completions
      .stream({
        model: "m",
        messages: [{ role: "system", content: OPENCODE_TITLE.systemPrefix }, user],
        tools,
      })
      .finalChatCompletion();
    expect(requests()[0]?.answer).toBe("turn:0");
  });

  it("answers a driver's helper call with its text and kind, using no turn", async () => {
    server = await startFakeServer(
      openaiChat.responder(
        scriptSchema.parse({ turns: [{ calls: [{ shell: "true" }] }] }),
        naming,
        (body) =>
          JSON.stringify(body).includes("memory extraction")
            ? { kind: "memory", text: "nothing" }
            : null,
      ),
    );
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", maxRetries: 0 });
    const reply = await client.chat.completions
      .stream({
        model: "m",
        messages: [{ role: "system", content: "You are the memory extraction agent" }, user],
        tools,
      })
      .finalContent();
    expect(reply).toBe("nothing");
    const captured = requests()[0];
    expect(captured?.answer).toBe("helper:memory");
    expect(captured && openaiChat.isAgentRequest(captured)).toBe(false);
  });

  it("answers a path other than /v1/chat/completions with 404", async () => {
    await serve({});
    const res = await fetch(`${server?.url ?? ""}/v1/responses`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(requests()[0]?.answer).toBe("not-found");
  });
});

describe("the Chat Completions request views", () => {
  const body = {
    messages: [
      system,
      { role: "user", content: [{ type: "text", text: "go MARK-USER" }] },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_w0_0", type: "function", function: { name: "bash", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_w0_0", content: "Command exited with code 3" },
      {
        role: "tool",
        tool_call_id: "call_w0_1",
        content: [
          { type: "text", text: "part one" },
          { type: "text", text: "part two" },
        ],
      },
    ],
    tools: [{ type: "function", function: { name: "bash", description: "MARK-TOOL" } }],
  };
  const captured = [
    { method: "POST", path: "/v1/chat/completions", headers: {}, body, answer: "turn:1" },
  ];

  it("puts system messages in system, every other message in messages, and the tools in tools", () => {
    const s = openaiChat.sections(body);
    expect(s.system).toContain("MARK-SYS");
    expect(s.system).not.toContain("MARK-USER");
    expect(s.messages).toContain("MARK-USER");
    expect(s.messages).not.toContain("MARK-SYS");
    expect(s.tools).toContain("MARK-TOOL");
    expect(openaiChat.offeredTools(body)).toEqual(["bash"]);
  });

  it("finds a tool result by its call id, a string or text parts joined", () => {
    expect(openaiChat.findResult(captured, "call_w0_0")).toEqual({
      isError: false,
      text: "Command exited with code 3",
    });
    expect(openaiChat.findResult(captured, "call_w0_1")?.text).toBe("part one\npart two");
    expect(openaiChat.findResult(captured, "call_w9_9")).toBeNull();
  });

  it("splits arguments into pieces that join back to the text", () => {
    expect(splitArguments('{"command":"touch x"}').join("")).toBe('{"command":"touch x"}');
    expect(splitArguments('{"command":"touch x"}')).toHaveLength(3);
    expect(splitArguments("{}")).toEqual(["{}"]);
  });
});

import { FinishReason, GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, it } from "vitest";

import { type Script, scriptSchema } from "../contracts/script.js";
import { geminiDriver } from "../drivers/gemini.js";
import { geminiApi, geminiRoute, geminiTurnIndex, responseText, schemaShaped } from "./gemini.js";
import { type FakeServer, startFakeServer } from "./server.js";

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(script: Partial<Script>): Promise<FakeServer> {
  server = await startFakeServer(
    geminiApi.responder(scriptSchema.parse(script), geminiDriver.naming),
  );
  return server;
}

/** Google's own client library, pointed at the fake (its stream parser reads what we send). */
const client = (url: string) =>
  new GoogleGenAI({ apiKey: "dummy-key", httpOptions: { baseUrl: url } });

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const shellTool = {
  functionDeclarations: [
    { name: "run_shell_command", parametersJsonSchema: { type: "object" } },
    { name: "write_file", parametersJsonSchema: { type: "object" } },
  ],
};

async function streamed(url: string, contents: unknown[]) {
  const stream = await client(url).models.generateContentStream({
    model: "witness-fake-model",
    contents: contents as never,
    config: { tools: [shellTool] },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("the fake Gemini API, read by @google/genai", () => {
  it("streams a text turn in two chunks that the client joins, ending with STOP and usage", async () => {
    const s = await start({ final: "all done here" });
    const chunks = await streamed(s.url, [user("hi")]);
    expect(chunks.map((c) => c.text).join("")).toBe("all done here");
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBe(15);
    expect(s.requests[0]).toMatchObject({
      path: "/v1beta/models/witness-fake-model:streamGenerateContent?alt=sse",
      answer: "final",
    });
  });

  it("sends a shell command as run_shell_command and a named tool as itself, with ids the client keeps", async () => {
    const s = await start({
      turns: [
        {
          calls: [
            { shell: "touch /tmp/x" },
            { tool: "write_file", input: { file_path: "/tmp/y", content: "hi\n" } },
          ],
        },
      ],
    });
    const [reply] = await streamed(s.url, [user("go")]);
    expect(reply?.functionCalls).toEqual([
      {
        id: "call_w0_0",
        name: "run_shell_command",
        args: { command: "touch /tmp/x", description: "witness probe command" },
      },
      { id: "call_w0_1", name: "write_file", args: { file_path: "/tmp/y", content: "hi\n" } },
    ]);
    expect(s.requests[0]?.issued?.map((c) => c.id)).toEqual(["call_w0_0", "call_w0_1"]);
  });

  it("plays the next turn once the model's turn is in contents, and reads the functionResponse back", async () => {
    const s = await start({ turns: [{ calls: [{ shell: "true" }] }, { text: "second" }] });
    await streamed(s.url, [user("go")]);
    const modelTurn = {
      role: "model",
      parts: [{ functionCall: { id: "call_w0_0", name: "run_shell_command", args: {} } }],
    };
    const response = {
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "run_shell_command__call_w0_0",
            name: "run_shell_command",
            response: { output: "Output: (empty)\nExit Code: 3" },
          },
        },
      ],
    };
    const chunks = await streamed(s.url, [user("go"), modelTurn, response]);
    expect(chunks.map((c) => c.text).join("")).toBe("second");
    expect(s.requests.map((r) => r.answer)).toEqual(["turn:0", "turn:1"]);
    expect(geminiApi.findResult(s.requests, "call_w0_0")).toEqual({
      isError: false,
      text: "Output: (empty)\nExit Code: 3",
    });
    const wire = geminiApi.findResult(s.requests, "call_w0_0");
    expect(geminiDriver.classify({ wire, recorded: null }).outcome).toBe("error");
  });

  it("answers the model router's JSON request with schema-shaped JSON the client parses", async () => {
    const s = await start({});
    const res = await client(s.url).models.generateContent({
      model: "gemini-3.5-flash-lite",
      contents: [user("route me")],
      config: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          type: "object",
          properties: {
            complexity_reasoning: { type: "string" },
            complexity_score: { type: "integer", minimum: 1, maximum: 100 },
          },
        },
      },
    });
    expect(JSON.parse(res.text ?? "")).toEqual({
      complexity_reasoning: "witness",
      complexity_score: 1,
    });
    expect(s.requests[0]?.answer).toBe("helper:generateContent:json");
    expect(geminiApi.isAgentRequest(s.requests[0] ?? ({} as never))).toBe(false);
  });

  it("answers countTokens", async () => {
    const s = await start({});
    const res = await client(s.url).models.countTokens({
      model: "m",
      contents: [user("x")],
    });
    expect(res.totalTokens).toBe(10);
  });

  it("plays a scripted status as an API error the client raises", async () => {
    const s = await start({ turns: [{ fault: { status: 503 } }] });
    await expect(streamed(s.url, [user("go")])).rejects.toThrow(/503|witness scripted fault/);
    expect(s.requests[0]?.answer).toBe("fault:status:503");
  });

  it("cuts a truncated stream before its finishing chunk", async () => {
    const s = await start({ turns: [{ fault: { truncate: true } }] });
    const chunks = await streamed(s.url, [user("go")]).catch(() => []);
    expect(chunks.some((c) => c.candidates?.[0]?.finishReason === FinishReason.STOP)).toBe(false);
  });
});

describe("reading Gemini requests", () => {
  const body = {
    systemInstruction: { parts: [{ text: "system S1" }] },
    contents: [user("project P1"), { role: "model", parts: [{ text: "m" }] }],
    tools: [shellTool],
  };

  it("splits a body into systemInstruction, contents and tools", () => {
    const s = geminiApi.sections(body);
    expect(s.system).toContain("S1");
    expect(s.system).not.toContain("P1");
    expect(s.messages).toContain("P1");
    expect(s.tools).toContain("write_file");
    expect(geminiApi.offeredTools(body)).toEqual(["run_shell_command", "write_file"]);
    expect(geminiTurnIndex(body)).toBe(1);
  });

  it.each([
    [
      "/v1beta/models/m:streamGenerateContent?alt=sse",
      { model: "m", method: "streamGenerateContent" },
    ],
    ["/v1/models/gemini-2.5-pro:countTokens", { model: "gemini-2.5-pro", method: "countTokens" }],
    ["/v1beta/models", null],
    ["/v1/chat/completions", null],
  ])("reads the route of %s", (path, route) => {
    expect(geminiRoute(path)).toEqual(route);
  });

  it("shapes JSON from a schema: enums first, numbers at least 1, nested objects", () => {
    expect(
      schemaShaped({
        type: "OBJECT",
        properties: {
          next_speaker: { type: "STRING", enum: ["user", "model"] },
          n: { type: "NUMBER" },
          list: { type: "ARRAY" },
          inner: { type: "object", properties: { ok: { type: "boolean" } } },
        },
      }),
    ).toEqual({ next_speaker: "user", n: 1, list: [], inner: { ok: false } });
  });

  it("reads a functionResponse's output or error as text", () => {
    expect(responseText({ output: "fine" })).toBe("fine");
    expect(responseText({ error: "Tool execution denied by policy." })).toBe(
      "Tool execution denied by policy.",
    );
    expect(responseText({ other: 1 })).toBe('{"other":1}');
  });

  it("falls back to the call's position in its turn when the CLI echoes other ids", () => {
    const requests = [
      {
        method: "POST",
        path: "/v1beta/models/m:streamGenerateContent",
        headers: {},
        body: { contents: [user("go")] },
        answer: "turn:0",
        issued: [
          { id: "call_w0_0", turn: 0, name: "a", input: {} },
          { id: "call_w0_1", turn: 0, name: "b", input: {} },
        ],
      },
      {
        method: "POST",
        path: "/v1beta/models/m:streamGenerateContent",
        headers: {},
        body: {
          contents: [
            user("go"),
            {
              role: "model",
              parts: [
                { functionCall: { id: "a_1", name: "a", args: {} } },
                { functionCall: { id: "b_2", name: "b", args: {} } },
              ],
            },
            {
              role: "user",
              parts: [
                { functionResponse: { id: "a_1", name: "a", response: { output: "A" } } },
                { functionResponse: { id: "b_2", name: "b", response: { error: "B" } } },
              ],
            },
          ],
        },
        answer: "final",
      },
    ];
    expect(geminiApi.findResult(requests, "call_w0_1")).toEqual({ isError: true, text: "B" });
    expect(geminiApi.findResult(requests, "call_w0_0")).toEqual({ isError: false, text: "A" });
    expect(geminiApi.findResult(requests, "call_w9_9")).toBeNull();
  });
});

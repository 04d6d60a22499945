import { describe, expect, it } from "vitest";

import { anthropicMessages } from "../fake/anthropic-messages.js";
import { openaiChat } from "../fake/openai-chat.js";
import type { CapturedRequest } from "../fake/server.js";
import { conversationKey, modelCallKinds, modelCallSummary } from "./model-calls.js";

const req = (body: unknown, answer: string, path = "/v1/messages"): CapturedRequest => ({
  method: "POST",
  path,
  headers: {},
  body,
  answer,
});

const task = [{ type: "text", text: "Create the file you are asked for." }];
const turn = (n: number, tools = [{ name: "Bash" }]) =>
  req(
    {
      system: "You are Claude Code.",
      messages: [
        { role: "user", content: task },
        ...Array.from({ length: n }, () => ({ role: "assistant", content: "…" })),
      ],
      tools,
    },
    `turn:${n}`,
  );

describe("the model calls of a spawn", () => {
  it("tells the agent's conversation from a sub-agent's, a helper, the classifier and an unclassified call", () => {
    const requests = [
      // A title request comes first and offers no tools: it is not the agent's conversation.
      req({ system: "Write a title", messages: [{ role: "user", content: "title?" }] }, "turn:0"),
      turn(0),
      req({ system: "x", messages: [{ role: "user", content: "Warmup" }] }, "helper:warmup"),
      req({ system: "You are a security monitor", messages: [] }, "classifier:allow"),
      req(
        {
          system: "sub",
          messages: [{ role: "user", content: "explore" }],
          tools: [{ name: "Read" }],
        },
        "turn:0",
      ),
      turn(1),
      req({}, "side:preconnect", "/api/hello"),
    ];
    expect(modelCallKinds(anthropicMessages, requests)).toEqual([
      "unclassified",
      "main",
      "helper:warmup",
      "permission-classifier",
      "sub-agent",
      "main",
      null,
    ]);
    expect(modelCallSummary(anthropicMessages, requests)).toEqual([
      { kind: "unclassified", count: 1, answers: ["turn:0"] },
      { kind: "main", count: 2, answers: ["turn:0", "turn:1"] },
      { kind: "helper:warmup", count: 1, answers: ["helper:warmup"] },
      {
        kind: "permission-classifier",
        count: 1,
        answers: ["classifier:allow"],
        decides: expect.stringContaining("approves or blocks a tool call") as unknown,
      },
      { kind: "sub-agent", count: 1, answers: ["turn:0"] },
    ]);
  });

  it("keys a conversation by its first user message on every wire shape", () => {
    const user = { role: "user", content: "hi" };
    expect(conversationKey({ messages: [{ role: "system", content: "s" }, user] })).toBe('"hi"');
    expect(conversationKey({ input: [{ role: "developer", content: "d" }, user] })).toBe('"hi"');
    expect(conversationKey({ contents: [{ role: "user", parts: [{ text: "hi" }] }] })).toBe(
      '[{"text":"hi"}]',
    );
    expect(conversationKey({ messages: [] })).toBeNull();
  });

  it("counts Chat Completions turns of one conversation as the agent's", () => {
    const chat = (n: number) =>
      req(
        {
          messages: [
            { role: "system", content: "agent" },
            { role: "user", content: "go" },
            ...Array.from({ length: n }, () => ({ role: "assistant", content: "…" })),
          ],
          tools: [{ type: "function", function: { name: "bash" } }],
        },
        `turn:${n}`,
        "/v1/chat/completions",
      );
    expect(modelCallKinds(openaiChat, [chat(0), chat(1)])).toEqual(["main", "main"]);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { claudeCodeDriver } from "../drivers/claude-code.js";
import { codexDriver } from "../drivers/codex.js";
import { noTranscript } from "../drivers/driver.js";
import { anthropicMessages } from "../fake/anthropic-messages.js";
import { openaiResponses } from "../fake/openai-responses.js";
import type { CapturedRequest } from "../fake/server.js";
import {
  markerOccurrences,
  markerSightings,
  observe,
  scriptPlaces,
  sentinelContent,
  toolsOffered,
} from "./observe.js";

const req = (body: unknown, path = "/v1/messages?beta=true"): CapturedRequest => ({
  method: "POST",
  path,
  headers: {},
  body,
  answer: "turn:0",
});

const claudeFirst = req({
  system: [{ type: "text", text: "You are Claude Code. SYS-MARK" }],
  messages: [
    { role: "user", content: [{ type: "text", text: "Contents of CLAUDE.md: MSG-MARK" }] },
  ],
  tools: [{ name: "Bash", description: "TOOL-MARK" }, { name: "Read" }],
});
const claudeSecond = req({
  system: "x",
  messages: [
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_w0_0", name: "Bash", input: {} }],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_w0_0",
          is_error: true,
          content: "Permission to use Bash has been denied.",
        },
      ],
    },
  ],
  tools: [{ name: "Write" }],
});
const classifier = req({
  system: "You are a security monitor",
  messages: [],
  tools: [{ name: "Classify" }],
});

const codexBody = {
  input: [
    {
      type: "additional_tools",
      role: "developer",
      tools: [
        {
          type: "namespace",
          name: "functions",
          tools: [
            {
              type: "custom",
              name: "exec",
              description: "declare const tools: { exec_command(args: {}): Promise<unknown>; };",
            },
            { type: "function", name: "wait" },
          ],
        },
      ],
    },
    {
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "You are Codex DEV-MARK" }],
    },
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "# AGENTS.md instructions AGENTS-MARK" }],
    },
    {
      type: "custom_tool_call_output",
      call_id: "call_w0_0",
      output: [{ type: "input_text", text: '{"exit_code":0,"output":""}' }],
    },
  ],
};

describe("observations from captured requests", () => {
  it("says whether a marker reached Claude Code's system prompt, messages or tool definitions", () => {
    const requests = [claudeFirst];
    expect(markerSightings(anthropicMessages, requests, false, "SYS-MARK")).toEqual(["system"]);
    expect(markerSightings(anthropicMessages, requests, false, "MSG-MARK")).toEqual(["messages"]);
    expect(markerSightings(anthropicMessages, requests, false, "TOOL-MARK")).toEqual(["tools"]);
    expect(markerSightings(anthropicMessages, requests, true, "MSG-MARK")).toEqual([
      "messages",
      "transcript",
    ]);
    expect(markerSightings(anthropicMessages, requests, false, "ABSENT")).toEqual([]);
  });

  it("treats Codex developer messages as its system prompt and additional_tools as its tools", () => {
    const requests = [req(codexBody, "/v1/responses")];
    expect(markerSightings(openaiResponses, requests, false, "DEV-MARK")).toEqual(["system"]);
    expect(markerSightings(openaiResponses, requests, false, "AGENTS-MARK")).toEqual(["messages"]);
    expect(markerSightings(openaiResponses, requests, false, "exec_command")).toEqual(["tools"]);
  });

  it("lists offered tools across agent requests, leaving out the classifier's", () => {
    expect(toolsOffered(anthropicMessages, [claudeFirst, classifier, claudeSecond])).toEqual([
      "Bash",
      "Read",
      "Write",
    ]);
    expect(toolsOffered(openaiResponses, [req(codexBody, "/v1/responses")])).toEqual([
      "exec",
      "exec.exec_command",
      "wait",
    ]);
  });

  it("pairs each issued call with the result the CLI sent back and the transcript's decision", () => {
    const facts = observe({
      driver: claudeCodeDriver,
      requests: [
        {
          ...claudeFirst,
          issued: [{ id: "toolu_w0_0", turn: 0, name: "Bash", input: { command: "touch /s" } }],
        },
        claudeSecond,
      ],
      markers: [],
      sentinels: [{ name: "S", path: "/nonexistent/witness/S" }],
      transcript: {
        ...noTranscript(),
        permissionMode: "default",
        permissionModes: ["default"],
        calls: new Map([["toolu_w0_0", { decision: "reject" }]]),
        outcomes: new Map([["toolu_w0_0", "denied"]]),
        model: "claude-opus-5-5",
        finalText: "done",
        warnings: ['/t.jsonl:9: unknown record type "x" (keys: type)'],
      },
    });
    expect(facts.toolCalls).toEqual([
      {
        id: "toolu_w0_0",
        name: "Bash",
        input: { command: "touch /s" },
        outcome: "denied",
        because: "permissionDecision reject",
        resultText: "Permission to use Bash has been denied.",
        permissionDecision: "reject",
        transcriptOutcome: "denied",
      },
    ]);
    expect(facts.sentinels).toEqual([
      { name: "S", path: "/nonexistent/witness/S", created: false },
    ]);
    expect(facts.requestCount).toBe(2);
    expect(facts.permissionMode).toBe("default");
    expect(facts).toMatchObject({
      permissionModes: ["default"],
      model: "claude-opus-5-5",
      finalText: "done",
      transcriptWarnings: ['/t.jsonl:9: unknown record type "x" (keys: type)'],
    });
  });

  it("reads Codex's custom_tool_call_output for an exec call", () => {
    const facts = observe({
      driver: codexDriver,
      requests: [
        {
          ...req(codexBody, "/v1/responses"),
          issued: [{ id: "call_w0_0", turn: 0, name: "exec", input: { code: "x" } }],
        },
      ],
      markers: [],
      sentinels: [],
      transcript: {
        ...noTranscript(),
        permissionMode: "never",
        sandboxPolicy: "workspace-write",
      },
    });
    expect(facts.toolCalls[0]).toMatchObject({
      outcome: "ran",
      resultText: '{"exit_code":0,"output":""}',
    });
    expect(facts.sandboxPolicy).toBe("workspace-write");
  });
});

describe("per-request sightings, call places and sentinel contents", () => {
  const twice = req({
    system: "sys",
    messages: [
      { role: "system", content: "# Environment R-MARK" },
      {
        role: "user",
        content:
          "Contents of /p/CLAUDE.md (project instructions): R-MARK\n\nContents of /p/w/CLAUDE.md (project instructions): R-MARK",
      },
    ],
    tools: [],
  });

  it("counts each occurrence per agent request, section and role, leaving the classifier out", () => {
    const seen = markerOccurrences(anthropicMessages, [classifier, twice, twice], "R-MARK");
    expect(seen.map(({ contexts: _c, ...rest }) => rest)).toEqual([
      { request: 0, location: "messages", role: "system", count: 1 },
      { request: 0, location: "messages", role: "user", count: 2 },
      { request: 1, location: "messages", role: "system", count: 1 },
      { request: 1, location: "messages", role: "user", count: 2 },
    ]);
    expect(seen[1]?.contexts[0]?.before).toContain("(project instructions): ");
  });

  it("keeps Codex's developer items as system with their role", () => {
    const seen = markerOccurrences(openaiResponses, [req(codexBody, "/v1/responses")], "DEV-MARK");
    expect(seen.map((s) => [s.location, s.role, s.count])).toEqual([["system", "developer", 1]]);
  });

  it("numbers issued calls in script order across turns", () => {
    const script = {
      turns: [
        { calls: [{ shell: "a" }, { shell: "b" }] },
        { text: "t" },
        { calls: [{ shell: "c" }] },
      ],
      final: "done",
      classifier: "allow" as const,
    };
    const issued = (id: string, turn: number) => ({ id, turn, name: "Bash", input: {} });
    const places = scriptPlaces(
      [
        { ...twice, issued: [issued("x0", 0), issued("x1", 0)] },
        { ...twice, issued: [issued("x2", 2)] },
      ],
      script,
    );
    expect([...places]).toEqual([
      ["x0", 1],
      ["x1", 2],
      ["x2", 3],
    ]);
  });

  it("reads a created sentinel's text, and nothing for a missing file or a directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "witness-sentinel-"));
    try {
      await writeFile(join(dir, "S"), "verdict: sandboxed\n");
      expect(sentinelContent(join(dir, "S"))).toBe("verdict: sandboxed\n");
      expect(sentinelContent(join(dir, "missing"))).toBeNull();
      expect(sentinelContent(dir)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from "vitest";

import type { Observation } from "./contracts/observation.js";
import { summarizeObservation } from "./summary.js";

const base: Observation = {
  cli: { name: "claude-code", version: "2.1.332" },
  argv: ["/c/claude", "-p", "hello world", "--setting-sources", ""],
  env: {},
  cwd: "/w",
  isolation: "netns",
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 512.4,
  requestCount: 2,
  sideRequests: [],
  helperCalls: [],
  rejectedArgv: null,
  markers: [
    {
      name: "WS",
      value: "WITNESS-WS-x",
      planted: ["ws/CLAUDE.md"],
      seenIn: ["messages", "transcript"],
    },
    { name: "HOME", value: "WITNESS-HOME-x", planted: ["home/.claude/CLAUDE.md"], seenIn: [] },
  ],
  sentinels: [{ name: "RAN", path: "/s/RAN", created: false }],
  toolsOffered: ["Read"],
  toolCalls: [
    {
      id: "toolu_w0_0",
      name: "Bash",
      input: {},
      outcome: "no-such-tool",
      resultText: "No such tool available: Bash",
      permissionDecision: null,
    },
  ],
  permissionMode: "default",
  sandboxPolicy: null,
  faults: [],
  stdoutTail: "",
  stderrTail: "",
};

describe("the observation summary", () => {
  it("puts the CLI's own meaning of its exit code on the first line when no request reached the fake", () => {
    const o: Observation = {
      ...base,
      exitCode: 55,
      requestCount: 0,
      noRequestReason: { exitCode: 55, meaning: "untrusted folder", stderr: "not trusted" },
    };
    expect(summarizeObservation(o).split("\n")[0]).toBe(
      "claude-code@2.1.332  exit 55 (untrusted folder)  512 ms  netns  0 request(s)",
    );
  });

  it("says where each marker was seen, what ran and what was offered, quoting odd arguments", () => {
    expect(summarizeObservation(base).split("\n")).toEqual([
      "claude-code@2.1.332  exit 0  512 ms  netns  2 request(s)",
      'argv: /c/claude -p "hello world" --setting-sources ""',
      "permission mode: default  sandbox policy: -",
      "markers:",
      "  WS  seen in messages, transcript  (planted in ws/CLAUDE.md)",
      "  HOME  not seen  (planted in home/.claude/CLAUDE.md)",
      "sentinels:",
      "  RAN  absent",
      "tool calls:",
      "  Bash toolu_w0_0  no-such-tool  No such tool available: Bash",
      "tools offered (1): Read",
    ]);
  });

  it("ends with the faults when a spawn is not evidence", () => {
    const text = summarizeObservation({
      ...base,
      faults: ["timeout: the CLI did not finish in time"],
    });
    expect(text.split("\n").slice(-2)).toEqual([
      "faults:",
      "  timeout: the CLI did not finish in time",
    ]);
  });

  it("shows the transcript's account of a call where it differs, and the transcript's warnings", () => {
    const call = {
      ...base.toolCalls[0]!,
      outcome: "error" as const,
      transcriptOutcome: "denied" as const,
    };
    const text = summarizeObservation({
      ...base,
      toolCalls: [call],
      transcriptWarnings: ['/s.jsonl:4: unknown record type "x" (keys: type)'],
    });
    expect(text).toContain(
      "  Bash toolu_w0_0  error  (transcript: denied)  No such tool available: Bash",
    );
    expect(text.split("\n").slice(-2)).toEqual([
      "transcript warnings:",
      '  /s.jsonl:4: unknown record type "x" (keys: type)',
    ]);
  });

  it("says when a managed file existed, and whether the CLI saw it masked", () => {
    const managedFiles = [
      { path: "/etc/claude-code/CLAUDE.md", present: true },
      { path: "/etc/claude-code/managed-mcp.json", present: false },
    ];
    expect(summarizeObservation(base)).not.toContain("managed");
    expect(summarizeObservation({ ...base, managedFiles: [managedFiles[1]!] })).not.toContain(
      "managed",
    );
    expect(summarizeObservation({ ...base, managedFiles })).toContain(
      "managed configuration PRESENT: /etc/claude-code/CLAUDE.md",
    );
    expect(
      summarizeObservation({ ...base, managedFiles, managedMasked: ["/etc/claude-code"] }),
    ).toContain(
      "managed configuration present, masked: /etc/claude-code/CLAUDE.md (the CLI saw /etc/claude-code empty)",
    );
  });
});

describe("summarizeObservation of an orchestrator launch", () => {
  it("names the orchestrator's packages and each spawn's argv, exit, mode, markers seen and calls", () => {
    const text = summarizeObservation({
      ...base,
      orchestrator: {
        command: ["node", "run.mjs"],
        clis: ["claude-code"],
        packages: [{ name: "@a/sdk", version: "0.3.332", integrity: "sha512-x" }],
        files: [],
        maxSpawns: 16,
      },
      spawns: [
        {
          spawn: 1,
          cli: "claude-code",
          argv: ["--setting-sources=user"],
          env: {},
          overridden: [],
          cwd: "/w",
          stdin: "",
          stdinBytes: 0,
          stdout: "",
          stdoutBytes: 0,
          exitCode: 0,
          signal: null,
          startMs: 1,
          durationMs: 2,
          requestCount: 1,
          markers: base.markers,
          toolsOffered: [],
          toolCalls: [
            {
              id: "t1",
              name: "Write",
              input: {},
              outcome: "denied",
              resultText: "",
              permissionDecision: null,
            },
          ],
          permissionMode: "plan",
          transcriptFile: null,
        },
      ],
    });
    expect(text).toContain("orchestrator package: @a/sdk@0.3.332 (sha512-x)");
    expect(text).toContain(
      'spawn 1: claude-code ["--setting-sources=user"] exit 0, 1 request(s), mode plan, markers seen: WS, calls: Write denied',
    );
    expect(text).not.toContain("asked the model nothing");
  });

  it("says why a spawn asked the model nothing", () => {
    const stopped = {
      spawn: 1,
      cli: "codex",
      argv: ["exec", "--cd", "/p"],
      env: {},
      overridden: [],
      cwd: "/w",
      stdin: "",
      stdinBytes: 0,
      stdout: "",
      stdoutBytes: 0,
      exitCode: 1,
      signal: null,
      startMs: 1,
      durationMs: 2,
      requestCount: 0,
      markers: [],
      toolsOffered: [],
      toolCalls: [],
      permissionMode: null,
      transcriptFile: null,
      noRequestReason: { exitCode: 1, meaning: null, stderr: "Not inside a trusted directory" },
    };
    expect(summarizeObservation({ ...base, spawns: [stopped] })).toContain(
      '  asked the model nothing: exit 1; stderr: "Not inside a trusted directory"',
    );
  });
});

// Live probes of the real pinned pi (0.73.1, @mariozechner) and of 1.6.0 (@earendil-works, on
// the Node 22 its engines ask for), installed through the vendor cache, offline. The prompt goes
// on stdin: pi reads an argument starting with `@` or `-` as a file or an option.
import { describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { CliRef, ProbeSpec } from "./contracts/probe-spec.js";

const NEW: CliRef = { name: "pi", version: "1.6.0" };

const marker = seenIn;

// Both sentinels lie in the cell, outside the workspace: pi has no approval layer to stop them.
const shellAndWrite: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "write", input: { path: "{{sentinel:WROTE}}", content: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};

const sources: ProbeSpec["fixture"] = {
  workspace: "outside-home",
  trust: true,
  files: [
    { at: "workspace", path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
    { at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS_CLAUDE}}" },
    { at: "parent", path: "AGENTS.md", content: "Rule {{marker:PARENT_AGENTS}}" },
    { at: "grandparent", path: "CLAUDE.md", content: "Rule {{marker:GP_CLAUDE}}" },
    { at: "home", path: ".pi/agent/AGENTS.md", content: "Rule {{marker:HOME_PI}}" },
    { at: "home", path: ".claude/CLAUDE.md", content: "Rule {{marker:HOME_CLAUDE}}" },
  ],
};

for (const [ref, inSystem] of [
  [PINNED.pi, ["system"]],
  // 1.x writes the whole system prompt into its session too.
  [NEW, ["system", "transcript"]],
] as const) {
  describe(`live: pi ${ref.version}`, () => {
    const { clis, probe } = liveProbe("pi", "pi probe", 60_000, ref);
    it("live: AGENTS.md from the workspace up to / (past the git root) and ~/.pi/agent reach the system prompt; a CLAUDE.md beside an AGENTS.md and ~/.claude do not", async (ctx) => {
      clis.need(ctx, "pi");
      const o = await probe({ fixture: sources, launch: { argv: ["-p"], stdin: "hi" } });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect(o.exitCode).toBe(0);
      expect(o.cli.version).toBe(ref.version);
      for (const name of ["WS_AGENTS", "PARENT_AGENTS", "GP_CLAUDE", "HOME_PI"])
        expect(marker(o, name), name).toEqual(inSystem);
      expect(marker(o, "WS_CLAUDE")).toEqual([]);
      expect(marker(o, "HOME_CLAUDE")).toEqual([]);
    });

    it("live: --no-context-files keeps every instruction file out", async (ctx) => {
      clis.need(ctx, "pi");
      const o = await probe({
        fixture: sources,
        launch: { argv: ["-p", "--no-context-files"], stdin: "hi" },
      });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect(o.markers.filter((m) => m.seenIn.length > 0).map((m) => m.name)).toEqual([]);
    });

    it("live: with no flag a shell call and a write outside the workspace both run", async (ctx) => {
      clis.need(ctx, "pi");
      const o = await probe({ script: shellAndWrite, launch: { argv: ["-p"], stdin: "go" } });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([true, true]);
      expect(o.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
        ["bash", "ran"],
        ["write", "ran"],
      ]);
      expect(o.transcriptFile).toMatch(/\.jsonl$/);
      expect(o.toolCalls.map((c) => c.transcriptOutcome)).toEqual(["ran", "ran"]);
    });

    it("live: --tools read leaves both tools out, and each call gets `Tool … not found`", async (ctx) => {
      clis.need(ctx, "pi");
      const o = await probe({
        script: shellAndWrite,
        launch: { argv: ["-p", "--tools", "read"], stdin: "go" },
      });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect(o.toolsOffered).toEqual(["read"]);
      expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([false, false]);
      expect(o.toolCalls.map((c) => c.outcome)).toEqual(["no-such-tool", "no-such-tool"]);
    });
  });
}

describe("live: pi 1.6.0's project trust and runtime", () => {
  const { clis, probe } = liveProbe("pi", "pi probe", 60_000, NEW);
  const project: ProbeSpec["fixture"]["files"] = [
    { at: "workspace", path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
    { at: "workspace", path: ".pi/APPEND_SYSTEM.md", content: "Rule {{marker:WS_APPEND}}" },
  ];

  it("live: an untrusted workspace's .pi/APPEND_SYSTEM.md stays out, AGENTS.md does not; trust.json or --approve lets it in", async (ctx) => {
    clis.need(ctx, "pi");
    const untrusted = { workspace: "outside-home", trust: false, files: project } as const;
    const plain = await probe({ fixture: untrusted, launch: { argv: ["-p"], stdin: "hi" } });
    expect(plain.faults, plain.stderrTail).toEqual([]);
    expect([marker(plain, "WS_AGENTS"), marker(plain, "WS_APPEND")]).toEqual([
      ["system", "transcript"],
      [],
    ]);
    const granted = await probe({
      fixture: { ...untrusted, trust: true },
      launch: { argv: ["-p"], stdin: "hi" },
    });
    expect(marker(granted, "WS_APPEND")).toEqual(["system", "transcript"]);
    const approved = await probe({
      fixture: untrusted,
      launch: { argv: ["-p", "--approve"], stdin: "hi" },
    });
    expect(marker(approved, "WS_APPEND")).toEqual(["system", "transcript"]);
  });

  it("live: it runs on a Node 22 from the vendor cache, which the agent's own shell runs too", async (ctx) => {
    clis.need(ctx, "pi");
    const o = await probe({
      script: {
        turns: [{ calls: [{ shell: "node --version > {{sentinel:NODE}}" }] }],
        final: "done",
        classifier: "allow",
      },
      launch: { argv: ["-p"], stdin: "go" },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.runtime).toMatchObject({
      kind: "node",
      source: "vendor-cache",
      declared: ">=22.19.0",
    });
    const version = o.runtime?.kind === "node" ? o.runtime.version : "";
    expect(version).toMatch(/^22\./);
    expect(o.sentinels.find((s) => s.name === "NODE")?.content).toBe(`v${version}\n`);
  });
});

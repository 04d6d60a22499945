// Live probes of the real pinned pi, installed through the vendor cache, offline. The prompt goes
// on stdin: pi reads an argument starting with `@` or `-` as a file or an option.
import { describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const { clis, probe } = liveProbe("pi", "pi probe");

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

describe("live: pi", () => {
  it("live: AGENTS.md from the workspace up to / (past the git root) and ~/.pi/agent reach the system prompt; a CLAUDE.md beside an AGENTS.md and ~/.claude do not", async (ctx) => {
    clis.need(ctx, "pi");
    const o = await probe({ fixture: sources, launch: { argv: ["-p"], stdin: "hi" } });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(PINNED.pi.version);
    for (const name of ["WS_AGENTS", "PARENT_AGENTS", "GP_CLAUDE", "HOME_PI"])
      expect(marker(o, name), name).toEqual(["system"]);
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

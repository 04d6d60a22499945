// Live probes of the real pinned opencode, installed through the vendor cache, offline. The prompt
// goes on stdin (`opencode run` re-quotes arguments holding whitespace); outcomes of auto-rejected
// calls come from its session database, since the run then stops with exit 0.
import { describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const { clis, probe } = liveProbe("opencode", "opencode probe", 90_000);

const marker = seenIn;

// Both sentinels lie in the cell, outside the workspace (opencode's external_directory rule).
const shellAndWrite: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "write", input: { filePath: "{{sentinel:WROTE}}", content: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};

describe("live: opencode", () => {
  it("live: the workspace AGENTS.md and the global one reach the system prompt; a CLAUDE.md beside it, files above the git root and pi's global file do not", async (ctx) => {
    clis.need(ctx, "opencode");
    const o = await probe({
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [
          { at: "workspace", path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
          { at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS_CLAUDE}}" },
          { at: "parent", path: "AGENTS.md", content: "Rule {{marker:PARENT_AGENTS}}" },
          { at: "home", path: ".config/opencode/AGENTS.md", content: "Rule {{marker:HOME_OC}}" },
          { at: "home", path: ".pi/agent/AGENTS.md", content: "Rule {{marker:HOME_PI}}" },
        ],
      },
      launch: { argv: ["run"], stdin: "hi" },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(PINNED.opencode.version);
    expect(marker(o, "WS_AGENTS")).toEqual(["system"]);
    expect(marker(o, "HOME_OC")).toEqual(["system"]);
    for (const name of ["WS_CLAUDE", "PARENT_AGENTS", "HOME_PI"])
      expect(marker(o, name), name).toEqual([]);
    expect(o.helperCalls).toEqual([expect.objectContaining({ kind: "title" })]);
  });

  it("live: by default both calls outside the workspace are auto-rejected, read from the session database", async (ctx) => {
    clis.need(ctx, "opencode");
    const o = await probe({ script: shellAndWrite, launch: { argv: ["run"], stdin: "go" } });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([false, false]);
    expect(o.toolCalls.map((c) => [c.name, c.outcome, c.permissionDecision])).toEqual([
      ["bash", "denied", "reject"],
      ["write", "denied", "reject"],
    ]);
  });

  it("live: under run --auto both calls outside the workspace create their sentinels", async (ctx) => {
    clis.need(ctx, "opencode");
    const o = await probe({
      script: shellAndWrite,
      launch: { argv: ["run", "--auto"], stdin: "go" },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([true, true]);
    expect(o.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["bash", "ran"],
      ["write", "ran"],
    ]);
    expect(o.transcriptFile).toMatch(/opencode\.db$/);
  });
});

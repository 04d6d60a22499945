// Live probes of the real pinned Qwen Code, installed through the vendor cache, offline.
import { describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const { clis, probe } = liveProbe("qwen", "Qwen Code probe");

const marker = seenIn;

const shellAndWrite: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "write_file", input: { file_path: "{{sentinel:WROTE}}", content: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};

describe("live: Qwen Code", () => {
  it("live: QWEN.md and AGENTS.md from the workspace, the git root's parent and ~/.qwen reach the system prompt; CLAUDE.md and files two levels up do not", async (ctx) => {
    clis.need(ctx, "qwen");
    const o = await probe({
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [
          { at: "workspace", path: "QWEN.md", content: "Rule {{marker:WS_QWEN}}" },
          { at: "workspace", path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
          { at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS_CLAUDE}}" },
          { at: "parent", path: "QWEN.md", content: "Rule {{marker:PARENT_QWEN}}" },
          { at: "grandparent", path: "AGENTS.md", content: "Rule {{marker:GP_AGENTS}}" },
          { at: "home", path: ".qwen/QWEN.md", content: "Rule {{marker:HOME_QWEN}}" },
        ],
      },
      launch: { argv: ["-p", "hi"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(PINNED.qwen.version);
    for (const name of ["WS_QWEN", "WS_AGENTS", "PARENT_QWEN", "HOME_QWEN"])
      expect(marker(o, name), name).toContain("system");
    expect(marker(o, "WS_CLAUDE")).toEqual([]);
    expect(marker(o, "GP_AGENTS")).toEqual([]);
  });

  it("live: under --approval-mode yolo a shell call and a file write create their sentinels", async (ctx) => {
    clis.need(ctx, "qwen");
    const o = await probe({
      script: shellAndWrite,
      launch: { argv: ["--approval-mode", "yolo", "-p", "go"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([true, true]);
    expect(o.toolCalls.map((c) => [c.name, c.outcome, c.permissionDecision])).toEqual([
      ["run_shell_command", "ran", "auto_accept"],
      ["write_file", "ran", "auto_accept"],
    ]);
  });

  it("live: the default approval mode declines both calls; neither tool is offered and no sentinel appears", async (ctx) => {
    clis.need(ctx, "qwen");
    const o = await probe({ script: shellAndWrite, launch: { argv: ["-p", "go"] } });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([false, false]);
    expect(o.toolsOffered).not.toContain("run_shell_command");
    expect(o.toolCalls.map((c) => [c.outcome, c.permissionDecision])).toEqual([
      ["denied", "execution_denied"],
      ["denied", "execution_denied"],
    ]);
  });

  it("live: with managed auto-memory turned back on, the memory-extraction request is answered as a side request, not as a turn", async (ctx) => {
    clis.need(ctx, "qwen");
    const o = await probe({
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [
          {
            at: "home",
            path: ".qwen/settings.json",
            content: '{"memory":{"enableManagedAutoMemory":true}}',
          },
        ],
      },
      // The agent ends on the first turn's text; a fake that took the extraction request for a
      // turn would answer it with the second turn's call.
      script: {
        turns: [{ text: "first" }, { calls: [{ shell: "touch {{sentinel:RAN}}" }] }],
        final: "done",
        classifier: "allow",
      },
      launch: { argv: ["--yolo", "-p", "Remember that I like tea."] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.requestCount).toBe(2);
    expect(o.toolCalls).toEqual([]);
    expect(created(o, "RAN")).toBe(false);
  });
});

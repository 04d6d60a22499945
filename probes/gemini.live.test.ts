// Live probes of the real pinned Gemini CLI, installed through the vendor cache, offline.
import { describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";
import { summarizeObservation } from "./summary.js";

const { clis, probe } = liveProbe("gemini", "Gemini CLI probe");

const MODEL = ["-m", "witness-fake-model"];

const marker = seenIn;

// One shell call (a cell sentinel: the shell tool is not path-limited) and one write inside the
// workspace (Gemini CLI refuses writes outside it in every mode).
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
const writeInWorkspace = {
  workspace: "outside-home" as const,
  trust: true,
  files: [],
  sentinelsIn: { WROTE: "workspace" as const },
};

describe("live: Gemini CLI", () => {
  it("live: the workspace GEMINI.md reaches the contents, the global one the systemInstruction; AGENTS.md and a GEMINI.md above the git root do not", async (ctx) => {
    clis.need(ctx, "gemini");
    const o = await probe({
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [
          { at: "workspace", path: "GEMINI.md", content: "Rule {{marker:WS_GEMINI}}" },
          { at: "workspace", path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
          { at: "home", path: ".gemini/GEMINI.md", content: "Rule {{marker:HOME_GEMINI}}" },
          { at: "parent", path: "GEMINI.md", content: "Rule {{marker:PARENT_GEMINI}}" },
        ],
      },
      launch: { argv: [...MODEL, "-p", "hi"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(PINNED.gemini.version);
    expect(marker(o, "WS_GEMINI")).toEqual(["messages", "transcript"]);
    expect(marker(o, "HOME_GEMINI")).toEqual(["system"]);
    expect(marker(o, "WS_AGENTS")).toEqual([]);
    expect(marker(o, "PARENT_GEMINI")).toEqual([]);
  });

  it("live: under --approval-mode yolo a shell call and a workspace write create their sentinels", async (ctx) => {
    clis.need(ctx, "gemini");
    const o = await probe({
      fixture: writeInWorkspace,
      script: shellAndWrite,
      launch: { argv: [...MODEL, "--approval-mode", "yolo", "-p", "go"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([true, true]);
    expect(o.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["run_shell_command", "ran"],
      ["write_file", "ran"],
    ]);
    expect(o.toolsOffered).toEqual(expect.arrayContaining(["run_shell_command", "write_file"]));
  });

  it("live: the default headless approval mode offers neither tool, and both calls get no such tool", async (ctx) => {
    clis.need(ctx, "gemini");
    const o = await probe({
      fixture: writeInWorkspace,
      script: shellAndWrite,
      launch: { argv: [...MODEL, "-p", "go"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect([created(o, "RAN"), created(o, "WROTE")]).toEqual([false, false]);
    expect(o.toolsOffered).not.toContain("run_shell_command");
    expect(o.toolsOffered).not.toContain("write_file");
    expect(o.toolCalls.map((c) => c.outcome)).toEqual(["no-such-tool", "no-such-tool"]);
  });

  it("live: an untrusted workspace makes headless Gemini CLI exit 55 before any request", async (ctx) => {
    clis.need(ctx, "gemini");
    const o = await probe({
      fixture: { workspace: "outside-home", trust: false, files: [] },
      launch: { argv: [...MODEL, "-p", "hi"] },
    });
    expect(o.exitCode).toBe(55);
    expect(o.requestCount).toBe(0);
    expect(o.stderrTail).toMatch(/not running in a trusted directory/);
    // The CLI's own reason, in the observation, its fault line and the summary's first line.
    expect(o.noRequestReason?.meaning).toMatch(/^untrusted folder/);
    expect(o.noRequestReason?.stderr).toMatch(/^Gemini CLI is not running in a trusted directory/);
    expect(o.faults).toEqual([
      expect.stringMatching(
        /; exit 55 \(untrusted folder.*stderr: "Gemini CLI is not running in a trusted directory/,
      ),
    ]);
    expect(summarizeObservation(o).split("\n")[0]).toMatch(
      /^gemini@0\.61\.0 {2}exit 55 \(untrusted folder/,
    );
  });
});

// Live probes of the real pinned opencode, installed through the vendor cache, offline. The prompt
// goes on stdin (`opencode run` re-quotes arguments holding whitespace); outcomes of auto-rejected
// calls come from its session database, since the run then stops with exit 0.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { liveClis } from "../test/support/live-clis.js";
import type { Observation } from "./contracts/observation.js";
import { PINNED } from "./contracts/pinned.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";
import { releaseWarmSlot } from "./isolation/netns.js";
import { runProbe } from "./run-probe.js";

const clis = liveClis([PINNED.opencode], "opencode probe");
beforeAll(() => clis.install(), 600_000);
afterAll(releaseWarmSlot);

async function probe(spec: Partial<Omit<ProbeSpec, "cli">> & Pick<ProbeSpec, "launch">) {
  return runProbe(
    {
      cli: PINNED.opencode,
      fixture: { workspace: "outside-home", trust: true, files: [] },
      script: { turns: [], final: "done", classifier: "allow" },
      timeoutMs: 90_000,
      ...spec,
    },
    { cacheDir: clis.cacheDir },
  );
}

const marker = (o: Observation, name: string) => o.markers.find((m) => m.name === name)?.seenIn;
const created = (o: Observation, name: string) => o.sentinels.find((s) => s.name === name)?.created;

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

// Live probes of the real GitHub Copilot CLI (pinned 1.0.102, and 1.0.60), installed through the
// vendor cache, offline (COPILOT_OFFLINE=true, the fake's Chat Completions as the provider).
import { describe, expect, it } from "vitest";

import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const pinned = liveProbe("copilot", "GitHub Copilot CLI probe", 90_000);
const older = liveProbe("copilot", "GitHub Copilot CLI 1.0.60 probe", 90_000, {
  name: "copilot",
  version: "1.0.60",
});

const files = [
  {
    at: "workspace" as const,
    path: ".github/copilot-instructions.md",
    content: "{{marker:WS_COPILOT}}",
  },
  { at: "workspace" as const, path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
  { at: "parent" as const, path: "AGENTS.md", content: "Rule {{marker:PARENT_AGENTS}}" },
  {
    at: "home" as const,
    path: ".copilot/copilot-instructions.md",
    content: "{{marker:HOME_COPILOT}}",
  },
];

const inWorkspace: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "create", input: { path: "{{sentinel:WROTE}}", file_text: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};
const sentinelsIn = { RAN: "workspace" as const, WROTE: "workspace" as const };

describe.each([
  ["1.0.102", pinned],
  ["1.0.60", older],
])("live: GitHub Copilot CLI %s", (version, { clis, probe }) => {
  it("live: the workspace's copilot-instructions.md and AGENTS.md and the home's file reach the system prompt; an AGENTS.md above the git root does not", async (ctx) => {
    clis.need(ctx, "copilot");
    const o = await probe({
      fixture: { workspace: "outside-home", trust: false, files },
      launch: { argv: ["--prompt=hi"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(version);
    for (const name of ["WS_COPILOT", "WS_AGENTS", "HOME_COPILOT"])
      expect(seenIn(o, name), name).toContain("system");
    expect(seenIn(o, "PARENT_AGENTS")).toEqual([]);
  });

  it("live: with no flag a shell call and a write are denied; under --allow-all-tools both run in the workspace", async (ctx) => {
    clis.need(ctx, "copilot");
    const fixture = { workspace: "outside-home" as const, trust: false, files: [], sentinelsIn };
    const denied = await probe({ fixture, script: inWorkspace, launch: { argv: ["--prompt=go"] } });
    expect(denied.faults, denied.stderrTail).toEqual([]);
    expect(denied.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["bash", "denied"],
      ["create", "denied"],
    ]);
    expect([created(denied, "RAN"), created(denied, "WROTE")]).toEqual([false, false]);
    const ran = await probe({
      fixture,
      script: inWorkspace,
      launch: { argv: ["--allow-all-tools", "--prompt=go"] },
    });
    expect(ran.faults, ran.stderrTail).toEqual([]);
    expect(ran.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["bash", "ran"],
      ["create", "ran"],
    ]);
    expect([created(ran, "RAN"), created(ran, "WROTE")]).toEqual([true, true]);
  });
});

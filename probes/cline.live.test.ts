// Live probes of the real Cline (pinned 3.0.65, and 3.0.57), installed through the vendor cache,
// offline (its native program, the fake's Anthropic Messages as its provider, the hub daemon off).
import { describe, expect, it } from "vitest";

import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const pinned = liveProbe("cline", "Cline probe", 90_000);
const older = liveProbe("cline", "Cline 3.0.57 probe", 90_000, {
  name: "cline",
  version: "3.0.57",
});

const files = [
  { at: "workspace" as const, path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
  { at: "workspace" as const, path: ".clinerules/style.md", content: "{{marker:WS_CLINERULES}}" },
  { at: "parent" as const, path: "AGENTS.md", content: "Rule {{marker:PARENT_AGENTS}}" },
  { at: "home" as const, path: ".agents/AGENTS.md", content: "{{marker:HOME_AGENTS}}" },
];

const inWorkspace: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "editor", input: { path: "{{sentinel:WROTE}}", new_text: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};
const sentinelsIn = { RAN: "workspace" as const, WROTE: "workspace" as const };

describe.each([
  ["3.0.65", pinned],
  ["3.0.57", older],
])("live: Cline %s", (version, { clis, probe }) => {
  it("live: the workspace's AGENTS.md and .clinerules file and the home's ~/.agents/AGENTS.md reach the system prompt; an AGENTS.md above the git root does not", async (ctx) => {
    clis.need(ctx, "cline");
    const o = await probe({
      fixture: { workspace: "outside-home", trust: false, files },
      launch: { argv: ["--", "say hi"] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(version);
    for (const name of ["WS_AGENTS", "WS_CLINERULES", "HOME_AGENTS"])
      expect(seenIn(o, name), name).toContain("system");
    expect(seenIn(o, "PARENT_AGENTS")).toEqual([]);
  });

  it("live: with no flag a shell call and a write run; under --auto-approve false both are denied", async (ctx) => {
    clis.need(ctx, "cline");
    const fixture = { workspace: "outside-home" as const, trust: false, files: [], sentinelsIn };
    const ran = await probe({ fixture, script: inWorkspace, launch: { argv: ["--", "go now"] } });
    expect(ran.faults, ran.stderrTail).toEqual([]);
    expect(ran.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["run_commands", "ran"],
      ["editor", "ran"],
    ]);
    expect([created(ran, "RAN"), created(ran, "WROTE")]).toEqual([true, true]);
    expect(ran.permissionMode).toBe("act");
    const denied = await probe({
      fixture,
      script: inWorkspace,
      launch: { argv: ["--auto-approve", "false", "--", "go now"] },
    });
    expect(denied.faults, denied.stderrTail).toEqual([]);
    expect(denied.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
      ["run_commands", "denied"],
      ["editor", "denied"],
    ]);
    expect([created(denied, "RAN"), created(denied, "WROTE")]).toEqual([false, false]);
  });
});

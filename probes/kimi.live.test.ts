// Live probes of the real Kimi Code (pinned 2.1.0, and 0.20.0), installed through the vendor cache
// with the Node its engines ask for, offline (the KIMI_MODEL_* provider on the fake's Chat Completions).
import { describe, expect, it } from "vitest";

import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const pinned = liveProbe("kimi", "Kimi Code probe", 90_000);
const older = liveProbe("kimi", "Kimi Code 0.20.0 probe", 90_000, {
  name: "kimi",
  version: "0.20.0",
});
const TEST_TIMEOUT = 200_000;

const files = [
  { at: "workspace" as const, path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
  { at: "parent" as const, path: "AGENTS.md", content: "Rule {{marker:PARENT_AGENTS}}" },
  { at: "home" as const, path: ".kimi-code/AGENTS.md", content: "{{marker:HOME_KIMI}}" },
  { at: "home" as const, path: ".agents/AGENTS.md", content: "{{marker:HOME_DOT_AGENTS}}" },
];

const calls: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "Write", input: { path: "{{sentinel:OUT}}", content: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};

describe.each([
  ["2.1.0", pinned],
  ["0.20.0", older],
])("live: Kimi Code %s", (version, { clis, probe }) => {
  it(
    "live: the workspace's AGENTS.md, ~/.kimi-code/AGENTS.md and ~/.agents/AGENTS.md reach the system prompt; an AGENTS.md above the git root does not",
    async (ctx) => {
      clis.need(ctx, "kimi");
      const o = await probe({
        fixture: { workspace: "outside-home", trust: false, files },
        launch: { argv: ["-p", "hi"] },
      });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect(o.exitCode).toBe(0);
      expect(o.cli.version).toBe(version);
      for (const name of ["WS_AGENTS", "HOME_KIMI", "HOME_DOT_AGENTS"])
        expect(seenIn(o, name), name).toContain("system");
      expect(seenIn(o, "PARENT_AGENTS")).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "live: under -p a shell call in the workspace and a write outside it both run, unasked",
    async (ctx) => {
      clis.need(ctx, "kimi");
      const o = await probe({
        fixture: {
          workspace: "outside-home",
          trust: false,
          files: [],
          sentinelsIn: { RAN: "workspace" },
        },
        script: calls,
        launch: { argv: ["-p", "go"] },
      });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect(o.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
        ["Bash", "ran"],
        ["Write", "ran"],
      ]);
      expect([created(o, "RAN"), created(o, "OUT")]).toEqual([true, true]);
    },
    TEST_TIMEOUT,
  );
});

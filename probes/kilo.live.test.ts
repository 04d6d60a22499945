// Live probes of the real Kilo Code CLI (pinned 7.7.7, and 7.0.33), installed through the vendor
// cache, offline (KILO_CONFIG_CONTENT pointing its provider at the fake's Chat Completions).
import { describe, expect, it } from "vitest";

import { created, liveProbe, seenIn } from "../test/support/live-probe.js";
import type { ProbeSpec } from "./contracts/probe-spec.js";

const pinned = liveProbe("kilo", "Kilo Code probe", 180_000);
const older = liveProbe("kilo", "Kilo Code 7.0.33 probe", 120_000, {
  name: "kilo",
  version: "7.0.33",
});

// 7.7.7 spends ~12 s of CPU starting up: on a loaded machine a spawn takes minutes.
const TEST_TIMEOUT = 400_000;

const files = [
  { at: "workspace" as const, path: "AGENTS.md", content: "Rule {{marker:WS_AGENTS}}" },
  { at: "workspace" as const, path: ".kilocoderules", content: "{{marker:WS_KILOCODERULES}}" },
  { at: "parent" as const, path: "AGENTS.md", content: "Rule {{marker:PARENT_AGENTS}}" },
  { at: "home" as const, path: ".config/kilo/AGENTS.md", content: "{{marker:HOME_KILO}}" },
];

const calls: ProbeSpec["script"] = {
  turns: [
    {
      calls: [
        { shell: "touch {{sentinel:RAN}}" },
        { tool: "write", input: { filePath: "{{sentinel:OUT}}", content: "hi\n" } },
      ],
    },
  ],
  final: "done",
  classifier: "allow",
};

describe.each([
  ["7.7.7", pinned],
  ["7.0.33", older],
])("live: Kilo Code %s", (version, { clis, probe }) => {
  it(
    "live: the workspace's AGENTS.md and .kilocoderules and ~/.config/kilo/AGENTS.md reach the system prompt; an AGENTS.md above the git root does not",
    async (ctx) => {
      clis.need(ctx, "kilo");
      const o = await probe({
        fixture: { workspace: "outside-home", trust: false, files },
        launch: { argv: ["run", "hi"] },
        timeoutMs: 150_000,
      });
      expect(o.faults, o.stderrTail).toEqual([]);
      expect(o.exitCode).toBe(0);
      expect(o.cli.version).toBe(version);
      for (const name of ["WS_AGENTS", "WS_KILOCODERULES", "HOME_KILO"])
        expect(seenIn(o, name), name).toContain("system");
      expect(seenIn(o, "PARENT_AGENTS")).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "live: with no flag the shell call in the workspace runs and the write outside it is auto-rejected; --auto runs both",
    async (ctx) => {
      clis.need(ctx, "kilo");
      const fixture = {
        workspace: "outside-home" as const,
        trust: false,
        files: [],
        sentinelsIn: { RAN: "workspace" as const },
      };
      const plain = await probe({
        fixture,
        script: calls,
        launch: { argv: ["run", "go"] },
        timeoutMs: 150_000,
      });
      expect(plain.faults, plain.stderrTail).toEqual([]);
      expect(plain.toolCalls.map((c) => [c.name, c.outcome])).toEqual([
        ["bash", "ran"],
        ["write", "denied"],
      ]);
      expect([created(plain, "RAN"), created(plain, "OUT")]).toEqual([true, false]);
      const auto = await probe({
        fixture,
        script: calls,
        launch: { argv: ["run", "--auto", "go"] },
        timeoutMs: 150_000,
      });
      expect(auto.faults, auto.stderrTail).toEqual([]);
      expect([created(auto, "RAN"), created(auto, "OUT")]).toEqual([true, true]);
    },
    TEST_TIMEOUT,
  );
});

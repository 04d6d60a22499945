// Live: the pinned CLIs' transcripts, read while the probe runs, agree with the wire and leave no
// line unread; a format that moved would show here as drift before it hid anything.
import { beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { liveClis } from "../test/support/live-clis.js";
import type { ProbeCliName } from "./contracts/probe-spec.js";
import { runProbe } from "./run-probe.js";

const clis = liveClis([PINNED["claude-code"], PINNED.codex], "transcript");

beforeAll(() => clis.install(), 600_000);

const ARGV: Record<"claude-code" | "codex", string[]> = {
  "claude-code": ["-p", "go", "--output-format", "json", "--permission-mode", "default"],
  codex: ["exec", "-s", "read-only", "go"],
};

describe("live: transcripts of the pinned CLIs", () => {
  for (const name of ["claude-code", "codex"] as const satisfies readonly ProbeCliName[]) {
    it(`live: ${name}'s transcript says what the wire says, with no line left unread`, async (ctx) => {
      clis.need(ctx, name);
      const observation = await runProbe(
        {
          cli: PINNED[name],
          fixture: {
            workspace: "outside-home",
            trust: true,
            files: [
              {
                at: "workspace",
                path: name === "codex" ? "AGENTS.md" : "CLAUDE.md",
                content: "rules {{marker:WS}}\n",
              },
            ],
            sentinelsIn: { B: "workspace" },
          },
          script: {
            turns: [{ calls: [{ shell: "touch {{sentinel:B}}" }] }],
            final: "all done",
            classifier: "allow",
          },
          launch: { argv: ARGV[name] },
          timeoutMs: 60_000,
        },
        { cacheDir: clis.cacheDir },
      );
      expect(observation.faults, observation.stderrTail).toEqual([]);
      expect(observation.transcriptWarnings).toEqual([]);
      expect(observation.transcriptFile).toMatch(
        name === "codex" ? /^home\/\.codex\/sessions\// : /^home\/\.claude\/projects\//,
      );
      expect(observation.sentinels[0]?.created).toBe(false);
      expect(observation.toolCalls.map((c) => [c.outcome, c.transcriptOutcome])).toEqual([
        ["denied", "denied"],
      ]);
      expect(observation.finalText).toBe("all done");
      expect(observation.model).not.toBeNull();
      if (name === "codex")
        expect(new Set(observation.sandboxPolicies)).toEqual(new Set(["read-only"]));
      else expect(observation.permissionModes).toEqual(["default"]);
      // Claude Code 2.1.282+ copies CLAUDE.md into its transcript; Codex keeps AGENTS.md in it.
      expect(observation.markers[0]?.seenIn).toContain("transcript");
    });
  }
});

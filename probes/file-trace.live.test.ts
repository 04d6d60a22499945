// File-access tracing on the real pinned Claude Code and Codex: a file nobody planted a marker in
// is reported when the CLI reads it, and not when it is absent; a planted one says whether its
// marker reached the model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { liveClis } from "../test/support/live-clis.js";
import type { Fixture } from "./contracts/fixture.js";
import type { ProbeCliName } from "./contracts/probe-spec.js";
import { releaseWarmSlot } from "./isolation/netns.js";
import { straceBinary } from "./observe/file-trace.js";
import { runProbe } from "./run-probe.js";

const clis = liveClis([PINNED["claude-code"], PINNED.codex], "probe");
beforeAll(() => clis.install(), 600_000);
afterAll(releaseWarmSlot);

const ARGV: Record<string, string[]> = { "claude-code": ["-p", "hello"], codex: ["exec", "hello"] };

function fixture(withAgents: boolean): Fixture {
  return {
    workspace: "outside-home",
    trust: true,
    files: [
      ...(withAgents
        ? [{ at: "workspace" as const, path: "AGENTS.md", content: "# no marker here\n" }]
        : []),
      { at: "home" as const, path: ".claude/CLAUDE.md", content: "Home rule {{marker:HOME_MD}}\n" },
    ],
  };
}

async function traced(name: ProbeCliName, withAgents: boolean) {
  const o = await runProbe(
    {
      cli: PINNED[name],
      fixture: fixture(withAgents),
      script: { turns: [], final: "done", classifier: "allow" },
      launch: { argv: ARGV[name] ?? [] },
      timeoutMs: 60_000,
      traceFiles: true,
    },
    { cacheDir: clis.cacheDir },
  );
  expect(o.faults, o.stderrTail).toEqual([]);
  return o;
}

describe.each(["claude-code", "codex"] as const)("%s traced", (name) => {
  it("reports the workspace's AGENTS.md, planted without a marker, as read but not planted; absent, it is not", async (ctx) => {
    clis.need(ctx, name);
    if (straceBinary() === null) ctx.skip("no strace on this machine: tracing is unavailable");
    const withFile = await traced(name, true);
    expect(withFile.fileTrace).toMatchObject({ by: "strace" });
    const agents = withFile.fileReads?.find((r) => r.path.endsWith("/ws/AGENTS.md"));
    expect(agents).toMatchObject({ marker: null, reachedModel: null });
    const without = await traced(name, false);
    expect(without.fileReads?.some((r) => r.path.endsWith("/ws/AGENTS.md"))).toBe(false);
  });
});

describe("claude-code traced", () => {
  it("says of the planted HOME file that it was read and that its marker reached the model", async (ctx) => {
    clis.need(ctx, "claude-code");
    if (straceBinary() === null) ctx.skip("no strace on this machine: tracing is unavailable");
    const o = await traced("claude-code", false);
    const home = o.fileReads?.find((r) => r.path === "home/.claude/CLAUDE.md");
    expect(home).toEqual({
      path: "home/.claude/CLAUDE.md",
      known: true,
      marker: "HOME_MD",
      reachedModel: true,
      // Claude Code 2.1.332 is one native program: its own process opened the file.
      by: "claude",
    });
    // The flag input it ran on: the flag service off, the release's compiled defaults.
    expect(o.featureFlags?.source).toBe("built-in");
  });
});

// Live probes of older published versions: side traffic is answered and listed, not a fault;
// Claude Code's helper calls are answered with text; Codex's older shell tools and exit codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { liveClis } from "../test/support/live-clis.js";
import type { CliRef, ProbeSpec } from "./contracts/probe-spec.js";
import { releaseWarmSlot } from "./isolation/netns.js";
import { runProbe } from "./run-probe.js";

const REFS: CliRef[] = [
  { name: "claude-code", version: "2.1.282" },
  { name: "claude-code", version: "2.0.77" },
  { name: "codex", version: "0.60.1" },
];
const clis = REFS.map((ref) => ({ ref, live: liveClis([ref], `${ref.name}@${ref.version}`) }));
beforeAll(async () => {
  for (const c of clis) await c.live.install();
}, 900_000);
afterAll(releaseWarmSlot);

const live = (version: string) => {
  const found = clis.find((c) => c.ref.version === version);
  if (found === undefined) throw new Error(`no live CLI ${version}`);
  return found;
};

async function probe(version: string, spec: Omit<ProbeSpec, "cli" | "fixture" | "timeoutMs">) {
  const { ref, live: l } = live(version);
  return runProbe(
    {
      cli: ref,
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [],
        sentinelsIn: { RAN: "workspace" },
      },
      timeoutMs: 120_000,
      ...spec,
    },
    { cacheDir: l.cacheDir },
  );
}

const touch = (exit = 0): ProbeSpec["script"] => ({
  turns: [{ calls: [{ shell: `touch {{sentinel:RAN}}; exit ${exit}` }] }],
  final: "done",
  classifier: "allow",
});

describe("live: older versions", () => {
  it("live: Claude Code 2.1.282's preconnect HEAD /api/hello is a side request, not a fault", async (ctx) => {
    live("2.1.282").live.need(ctx, "claude-code");
    const o = await probe("2.1.282", { launch: { argv: ["-p", "hi"] }, script: touch() });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.sideRequests).toEqual([{ method: "HEAD", path: "/api/hello", status: 200, count: 1 }]);
  });

  it("live: Claude Code 2.0.77's Warmups get text, and the agent's own Bash result is read", async (ctx) => {
    live("2.0.77").live.need(ctx, "claude-code");
    const o = await probe("2.0.77", {
      launch: { argv: ["-p", "go", "--allowedTools", "Bash"] },
      script: { ...touch(), turns: [{ calls: [{ shell: "touch {{sentinel:RAN}}" }] }] },
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.helperCalls.find((h) => h.kind === "warmup")?.count).toBeGreaterThan(0);
    expect(o.sentinels[0]?.created).toBe(true);
    expect(o.toolCalls.map((c) => [c.name, c.outcome])).toEqual([["Bash", "ran"]]);
  });

  it("live: Codex 0.60.1 gets a shell_command call and its exit code is read from the text", async (ctx) => {
    live("0.60.1").live.need(ctx, "codex");
    const o = await probe("0.60.1", {
      launch: { argv: ["exec", "--sandbox", "workspace-write", "go"] },
      script: touch(3),
    });
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.toolCalls.map((c) => [c.name, c.outcome])).toEqual([["shell_command", "error"]]);
    expect(o.toolCalls[0]?.resultText).toMatch(/^Exit code: 3$/m);
    expect(o.sentinels[0]?.created).toBe(true);
  });
});

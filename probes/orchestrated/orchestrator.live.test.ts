// Live: the Claude Agent SDK as an orchestrator in the cell, against the pinned Claude Code. Its
// CLI reached through witness's shim is one observed spawn; the SDK's bundled binary (no
// pathToClaudeCodeExecutable) reaches the fake on the orchestrator's own route: a bypass fault.
import { join, sep } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../../clis/pinned.js";
import { liveClis } from "../../test/support/live-clis.js";
import { releaseWarmSlot } from "../isolation/netns.js";
import { runProbe } from "../run-probe.js";
import { ensurePackages } from "../vendor-packages.js";

const SDK = "@anthropic-ai/claude-agent-sdk@0.3.332";
const clis = liveClis([PINNED["claude-code"]], "orchestrator");
let sdkMissing: string | null = null;
beforeAll(async () => {
  await clis.install();
  try {
    await ensurePackages([SDK], { cacheDir: clis.cacheDir });
  } catch (error) {
    sdkMissing = `cannot install ${SDK}: ${String(error)}`;
    console.warn(`live orchestrator tests will be skipped: ${sdkMissing}`);
  }
}, 600_000);
afterAll(releaseWarmSlot);

// The orchestrator: one query() with the user setting source; `shim` decides whether the SDK is
// pointed at witness's shim or left to find its own bundled binary.
const script = (shim: boolean) => `import { query } from "@anthropic-ai/claude-agent-sdk";
const options = { settingSources: ["user"]${shim ? ", pathToClaudeCodeExecutable: process.env.WITNESS_CLI_CLAUDE_CODE" : ""} };
let result = null;
for await (const m of query({ prompt: "Reply with the word done.", options })) if (m.type === "result") result = m;
process.exit(result === null ? 4 : 0);
`;

function orchestrate(shim: boolean, root: "temp" | "home" = "temp") {
  return runProbe(
    {
      cli: PINNED["claude-code"],
      fixture: {
        workspace: "outside-home",
        trust: true,
        cell: { root },
        files: [
          { at: "workspace", path: "run-query.mjs", content: script(shim) },
          { at: "home", path: ".claude/CLAUDE.md", content: "Operator. {{marker:HOME_MD}}\n" },
        ],
      },
      script: { turns: [], final: "done", classifier: "allow" },
      launch: {
        orchestrator: {
          command: ["node", "run-query.mjs"],
          clis: ["claude-code"],
          packages: [SDK],
        },
      },
      timeoutMs: 90_000,
    },
    { cacheDir: clis.cacheDir },
  );
}

describe("live: the Agent SDK as an orchestrator", () => {
  it("live: a query() pointed at the shim is one spawn, with the SDK's argv and stdin", async (ctx) => {
    clis.need(ctx, "claude-code");
    if (sdkMissing !== null) ctx.skip(sdkMissing);
    const o = await orchestrate(true);
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.spawns).toHaveLength(1);
    const spawn = o.spawns?.[0];
    expect(spawn?.argv).toContain("--setting-sources=user");
    expect(spawn?.stdin).toContain('"subtype":"initialize"');
    expect(spawn?.requestCount).toBeGreaterThan(0);
    expect(o.orchestrator?.packages).toEqual([
      expect.objectContaining({ name: "@anthropic-ai/claude-agent-sdk", version: "0.3.332" }),
    ]);
  });

  it("live: the fixture's cell root under the cache holds for an orchestrator launch", async (ctx) => {
    clis.need(ctx, "claude-code");
    if (sdkMissing !== null) ctx.skip(sdkMissing);
    const o = await orchestrate(true, "home");
    expect(o.faults, o.stderrTail).toEqual([]);
    expect(o.cellRoot).toBe("home");
    expect(o.cwd.startsWith(join(clis.cacheDir, "cells") + sep)).toBe(true);
    expect(o.spawns?.[0]?.cwd.startsWith(join(clis.cacheDir, "cells") + sep)).toBe(true);
  });

  it("live: a query() left to the SDK's bundled binary is reported as a bypass", async (ctx) => {
    clis.need(ctx, "claude-code");
    if (sdkMissing !== null) ctx.skip(sdkMissing);
    const o = await orchestrate(false);
    expect(o.spawns).toEqual([]);
    expect(o.faults).toContainEqual(
      expect.stringMatching(/^bypass: 1 model request\(s\) .*agent-sdk\/0\.3\.332/),
    );
    expect(o.faults).toContainEqual(expect.stringMatching(/^no-spawn: /));
  });
});

// Live fault arms: a scripted 5xx or a cut stream ends each real CLI's spawn in seconds (its
// retries are bounded by the driver), and a played hang is the one excused timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { liveClis } from "../test/support/live-clis.js";
import type { ProbeCliName } from "./contracts/probe-spec.js";
import type { Fault } from "./contracts/script.js";
import { releaseWarmSlot } from "./isolation/netns.js";
import { runProbe } from "./run-probe.js";

const NAMES = ["claude-code", "codex", "gemini", "pi"] as const satisfies readonly ProbeCliName[];
const clis = liveClis(
  NAMES.map((name) => PINNED[name]),
  "fault",
);
beforeAll(() => clis.install(), 600_000);
afterAll(releaseWarmSlot);

const ARGV: Record<(typeof NAMES)[number], string[]> = {
  "claude-code": ["-p", "hi"],
  codex: ["exec", "hi"],
  gemini: ["-m", "witness-fake-model", "-p", "hi"],
  pi: ["-p", "hi"],
};

// Far below the retry budgets the CLIs default to (Claude Code: a minute of backed-off retries).
const BOUND_MS = 30_000;

function faulted(name: (typeof NAMES)[number], fault: Fault, timeoutMs = BOUND_MS) {
  return runProbe(
    {
      cli: PINNED[name],
      fixture: { workspace: "outside-home", trust: true, files: [] },
      script: { turns: [{ fault }], final: "done", classifier: "allow" },
      launch: { argv: ARGV[name] },
      timeoutMs,
    },
    { cacheDir: clis.cacheDir },
  );
}

describe("live: fault arms", () => {
  for (const name of NAMES) {
    for (const fault of [{ status: 500 }, { truncate: true }] as const) {
      it(`live: ${name} gives up on ${JSON.stringify(fault)} within the bound, asking at most twice`, async (ctx) => {
        clis.need(ctx, name);
        const o = await faulted(name, fault);
        expect(o.timedOut, o.stderrTail).toBe(false);
        expect(o.faults).toEqual([]);
        expect(o.exitCode).not.toBe(0);
        expect(o.requestCount).toBeGreaterThanOrEqual(1);
        expect(o.requestCount).toBeLessThanOrEqual(2);
      });
    }
  }

  it("live: claude-code killed by a signal witness did not send is a fault, not a finished spawn", async (ctx) => {
    clis.need(ctx, "claude-code");
    // The tool call's shell kills its parent, the CLI, as anything outside witness could.
    const o = await runProbe(
      {
        cli: PINNED["claude-code"],
        fixture: { workspace: "outside-home", trust: true, files: [] },
        script: {
          turns: [{ calls: [{ shell: "kill -KILL $PPID" }] }],
          final: "done",
          classifier: "allow",
        },
        launch: { argv: ["-p", "hi", "--permission-mode", "bypassPermissions"] },
        timeoutMs: BOUND_MS,
      },
      { cacheDir: clis.cacheDir },
    );
    expect(o.timedOut, o.stderrTail).toBe(false);
    expect(o.faults.filter((f) => f.startsWith("killed: the CLI ended by SIGKILL"))).toHaveLength(
      1,
    );
  });

  it("live: a played hang is the one timeout that is not a fault", async (ctx) => {
    clis.need(ctx, "claude-code");
    const o = await faulted("claude-code", { hang: true }, 5000);
    expect(o.timedOut).toBe(true);
    expect(o.faults).toEqual([]);
  });
});

// Live: a node prompt that looks like a flag reaches each real CLI's model as the prompt, through
// the reference orchestrator's rendering (after `--`, or on stdin).
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { liveClis } from "../test/support/live-clis.js";
import type { ProbeCliName } from "./contracts/probe-spec.js";
import { releaseWarmSlot } from "./isolation/netns.js";
import { runProbe } from "./run-probe.js";

const NAMES = ["claude-code", "codex", "gemini", "qwen"] as const satisfies readonly ProbeCliName[];
const clis = liveClis(
  NAMES.map((name) => PINNED[name]),
  "prompt",
);
const kept: string[] = [];
beforeAll(() => clis.install(), 600_000);
afterAll(async () => {
  await releaseWarmSlot();
  await Promise.all(kept.map((dir) => rm(dir, { recursive: true, force: true })));
});

// Gemini CLI needs a model name the fake accepts; the others take the driver's default.
const MODEL: Partial<Record<ProbeCliName, string>> = { gemini: "witness-fake-model" };

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

describe("live: the prompt is data", () => {
  for (const name of NAMES) {
    it.for(["-x", "--help", "--model evil"])(
      `live: ${name} sends the node prompt %j to the model and answers it`,
      async (prompt, ctx) => {
        clis.need(ctx, name);
        let cell = "";
        const o = await runProbe(
          {
            cli: PINNED[name],
            fixture: { workspace: "outside-home", trust: true, files: [] },
            script: { turns: [], final: "done", classifier: "allow" },
            launch: {
              node: { id: "n", prompt, ...(MODEL[name] ? { model: MODEL[name] } : {}) },
              acceptLoadedUserConfig: false,
            },
            timeoutMs: 60_000,
          },
          {
            cacheDir: clis.cacheDir,
            keep: true,
            onCellKept: (dir) => {
              kept.push(dir);
              cell = dir;
            },
          },
        );
        expect(o.faults, o.stderrTail).toEqual([]);
        expect(o.exitCode, o.stderrTail).toBe(0);
        const requests = JSON.parse(await readFile(join(cell, "requests.json"), "utf8")) as unknown;
        // The prompt arrived whole, as one piece of the conversation, not as a flag's effect.
        expect(strings(requests).map((s) => s.trim())).toContain(prompt);
      },
    );
  }
});

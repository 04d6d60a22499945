// Live: the detector, fed what a real CLI's tool child sees (its env and /proc/self/status), reads
// a full-access session as full access and a sandboxed one as sandboxed.
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { detectParentAccess } from "../orchestrator/parent-access/detect.js";
import type { ParentAccess } from "../orchestrator/parent-access/parent-access.js";
import { liveClis } from "../test/support/live-clis.js";
import type { ProbeCliName } from "./contracts/probe-spec.js";
import { runProbe } from "./run-probe.js";

const clis = liveClis([PINNED["claude-code"], PINNED.codex], "parent-access");
const kept: string[] = [];
const SPLIT = "WITNESS_PROC_STATUS_FOLLOWS";

beforeAll(() => clis.install(), 600_000);

afterAll(() => Promise.all(kept.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Splits `env; echo SPLIT; cat /proc/self/status` output into the env and the status text. */
function childView(output: string): { env: Record<string, string>; status: string } {
  const at = output.indexOf(SPLIT);
  if (at < 0) throw new Error(`the tool child's output lacks ${SPLIT}:\n${output.slice(0, 2000)}`);
  const env: Record<string, string> = {};
  for (const line of output.slice(0, at).split("\n")) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1] ?? ""] = match[2] ?? "";
  }
  return { env, status: output.slice(at + SPLIT.length) };
}

/** Codex hands the exec tool's result back as JSON after "Output:"; Claude Code as plain text. */
function toolOutput(name: ProbeCliName, resultText: string): string {
  if (name === "claude-code") return resultText;
  const json = resultText.slice(resultText.indexOf("{"));
  const parsed = JSON.parse(json) as { output?: unknown };
  return typeof parsed.output === "string" ? parsed.output : "";
}

/** Every string in a JSON value, depth first. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/**
 * The tool child's output as the CLI sent it back to the fake model, read from the kept cell's
 * captured requests: the observation redacts it (the session ids are secret-named variables).
 */
async function capturedToolOutput(cell: string): Promise<string> {
  const requests = JSON.parse(await readFile(join(cell, "requests.json"), "utf8")) as unknown;
  // The command itself names SPLIT too; only the output holds the status it printed.
  const found = strings(requests).find((t) => t.includes(SPLIT) && t.includes("NoNewPrivs"));
  if (found === undefined) throw new Error(`no captured request holds the tool child's output`);
  return found;
}

/** Runs the pinned CLI with `argv`, has its shell tool print what it sees, and runs the detector on that. */
async function accessSeenBy(
  ctx: TestContext,
  name: ProbeCliName,
  argv: string[],
): Promise<ParentAccess> {
  clis.need(ctx, name);
  let cell = "";
  const observation = await runProbe(
    {
      cli: PINNED[name],
      fixture: { workspace: "outside-home", trust: true, files: [] },
      script: {
        turns: [{ calls: [{ shell: `env; echo ${SPLIT}; cat /proc/self/status` }] }],
        final: "done",
        classifier: "allow",
      },
      launch: { argv },
      timeoutMs: 60_000,
    },
    // Plain loopback: the network namespace is witness's own wrapper, not the vendor's sandbox.
    {
      cacheDir: clis.cacheDir,
      keep: true,
      noNetns: true,
      onCellKept: (dir) => {
        kept.push(dir);
        cell = dir;
      },
    },
  );
  expect(observation.faults, observation.stderrTail).toEqual([]);
  const call = observation.toolCalls[0];
  expect(call?.outcome, call?.resultText).toBe("ran");
  const view = childView(toolOutput(name, await capturedToolOutput(cell)));
  return detectParentAccess({
    env: view.env,
    platform: "linux",
    readProcStatus: () => Promise.resolve(view.status),
  });
}

const sources = (access: ParentAccess) => access.evidence.map((e) => [e.source, e.passed]);

describe.runIf(process.platform === "linux")("live: parent access seen from a tool child", () => {
  it("live: a Codex session in danger-full-access reads as full access", async (ctx) => {
    const access = await accessSeenBy(ctx, "codex", ["exec", "-s", "danger-full-access", "go"]);
    expect(sources(access)).toEqual([
      ["no_new_privs", true],
      ["CODEX_SANDBOX", true],
      ["codex-rollout", true],
    ]);
    expect(access.fullAccess).toBe(true);
  });

  it("live: a Codex session under workspace-write reads as sandboxed, on every count", async (ctx) => {
    const access = await accessSeenBy(ctx, "codex", ["exec", "-s", "workspace-write", "go"]);
    expect(sources(access)).toEqual([
      ["no_new_privs", false],
      ["CODEX_SANDBOX", false],
      ["codex-rollout", false],
    ]);
    expect(access.fullAccess).toBe(false);
  });

  it("live: a Claude Code session in bypassPermissions reads as full access", async (ctx) => {
    const access = await accessSeenBy(ctx, "claude-code", [
      "-p",
      "go",
      "--permission-mode",
      "bypassPermissions",
    ]);
    expect(sources(access)).toEqual([
      ["no_new_privs", true],
      ["CODEX_SANDBOX", true],
      ["claude-transcript", true],
    ]);
    expect(access.fullAccess).toBe(true);
  });

  it("live: a Claude Code session in default mode (Bash allowed by a flag) reads as sandboxed", async (ctx) => {
    const access = await accessSeenBy(ctx, "claude-code", ["-p", "go", "--allowedTools", "Bash"]);
    expect(access.evidence.find((e) => e.source === "claude-transcript")).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/permissionMode is default$/) as string,
    });
    expect(access.fullAccess).toBe(false);
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { factsOf } from "../clis/facts-by-cli.js";
import type { ExecResult } from "../core/exec.js";
import { scriptSchema } from "./contracts/script.js";
import { driverFor } from "./drivers/index.js";
import type { CapturedRequest } from "./fake/server.js";
import { managedFacts } from "./isolation/managed.js";
import { forgedSentinels, runProbe, spawnFaults } from "./run-probe.js";

const ok: ExecResult = {
  exitCode: 0,
  signal: null,
  stdout: "",
  stderr: "",
  durationMs: 5,
  timedOut: false,
  spawnError: null,
};
const request = (
  answer: string,
  path = "/v1/messages",
  method = "POST",
  body: unknown = null,
): CapturedRequest => ({ method, path, headers: {}, body, answer });
const plain = scriptSchema.parse({});

describe("spawn faults", () => {
  it("counts a sentinel another uid made as a forgery, not as this spawn's evidence", () => {
    const sentinel = { path: "/c/sentinels/S", created: true, byCall: 1 };
    expect(
      forgedSentinels([
        { ...sentinel, name: "MINE", madeBySpawn: true },
        { ...sentinel, name: "FORGED", madeBySpawn: false },
        { ...sentinel, name: "UNSANDBOXED" },
      ]),
    ).toEqual(["sentinel-forged: FORGED was made by another uid than this spawn's"]);
  });

  it("finds none in a spawn that reached the fake server and finished", () => {
    expect(spawnFaults(ok, [request("final")])).toEqual([]);
  });

  it("reports a CLI that never started and a spawn that sent no request", () => {
    expect(spawnFaults({ ...ok, exitCode: null, spawnError: "ENOENT" }, [])).toEqual([
      "cli-not-started: ENOENT",
      "no-request: no model request reached the fake server",
    ]);
  });

  it("counts a spawn that sent only side traffic as one that never asked the model", () => {
    expect(spawnFaults(ok, [request("side", "/api/hello", "HEAD")])).toEqual([
      "no-request: no model request reached the fake server (only side traffic: HEAD /api/hello)",
    ]);
  });

  it("excuses a timeout only when the fake server played the scripted hang", () => {
    const timedOut = { ...ok, exitCode: null, signal: "SIGKILL", timedOut: true };
    const timeout = ["timeout: the CLI did not finish in time"];
    expect(spawnFaults(timedOut, [request("final")])).toEqual(timeout);
    expect(spawnFaults(timedOut, [request("fault:hang")])).toEqual([]);
    // The script hangs on turn 2, but the CLI was killed while turn 1 was being answered.
    expect(spawnFaults(timedOut, [request("turn:0")])).toEqual(timeout);
  });

  it("counts a CLI killed by a signal witness did not send as a fault, however the launcher reports it", () => {
    const reached = [request("final")];
    expect(spawnFaults({ ...ok, exitCode: null, signal: "SIGKILL" }, reached)).toEqual([
      "killed: the CLI ended by SIGKILL, which witness did not send: its run was cut short",
    ]);
    // A PID namespace's launcher reports its child's signal as a shell does: 128 + the number.
    expect(spawnFaults({ ...ok, exitCode: 143 }, reached)).toEqual([
      "killed: the CLI ended by SIGTERM (exit code 143), which witness did not send: its run was cut short",
    ]);
    expect(spawnFaults({ ...ok, exitCode: 1 }, reached)).toEqual([]);
    expect(spawnFaults({ ...ok, exitCode: 128 }, reached)).toEqual([]);
  });

  it("does not count side traffic as a fault, answered or not", () => {
    const side = [request("side", "/api/hello", "HEAD"), request("not-found", "/health", "GET")];
    expect(spawnFaults(ok, [...side, request("final")])).toEqual([]);
  });

  it("reports a model call on a route the fake does not serve, naming it", () => {
    const chat = request("not-found", "/v1/chat/completions", "POST", { model: "m", messages: [] });
    expect(spawnFaults(ok, [request("final"), chat])).toEqual([
      "unserved-model-request: POST /v1/chat/completions (the fake serves no such route)",
    ]);
  });

  it("says why no request reached the fake server, in the CLI's terms", () => {
    const reason = { exitCode: 55, meaning: "untrusted folder", stderr: "not trusted" };
    expect(spawnFaults({ ...ok, exitCode: 55 }, [], { reason })).toEqual([
      'no-request: no model request reached the fake server; exit 55 (untrusted folder); stderr: "not trusted"',
    ]);
  });

  it("reports a refused flag in the CLI's words instead of a missing request", () => {
    const failed = { ...ok, exitCode: 1 };
    const rejected = { flag: "--tools", message: "error: unknown option '--tools'" };
    expect(spawnFaults(failed, [], { cli: "claude-code 1.0.128", rejected })).toEqual([
      "claude-code 1.0.128 rejected `--tools`: error: unknown option '--tools'",
    ]);
  });
});

describe("runProbe without an installable CLI", () => {
  it("returns an observation whose faults say the CLI is missing, instead of throwing", async () => {
    // An empty cache directory and an npm that cannot be found: the install must fail.
    const saved = process.env.PATH;
    const cacheDir = await mkdtemp(join(tmpdir(), "witness-empty-cache-"));
    process.env.PATH = join(cacheDir, "no-bin");
    try {
      const o = await runProbe(
        {
          cli: { name: "codex", version: "0.171.0" },
          fixture: { workspace: "outside-home", trust: true, files: [] },
          script: plain,
          launch: { argv: ["exec", "hi"] },
          timeoutMs: 5000,
        },
        { cacheDir },
      );
      expect(o.faults).toHaveLength(1);
      expect(o.faults[0]).toMatch(/^cli-missing: /);
      expect(o.exitCode).toBeNull();
      expect(o.requestCount).toBe(0);
    } finally {
      process.env.PATH = saved;
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

describe("managed configuration as a stated fact", () => {
  it("says which of a driver's managed files exist, each by path", () => {
    const present = new Set(["/etc/claude-code/managed-settings.json"]);
    expect(managedFacts(factsOf("claude-code").managedFiles, (p) => present.has(p))).toEqual([
      { path: "/etc/claude-code/managed-settings.json", present: true },
      { path: "/etc/claude-code/managed-settings.d", present: false },
      { path: "/etc/claude-code/managed-mcp.json", present: false },
      { path: "/etc/claude-code/CLAUDE.md", present: false },
      { path: "/etc/claude-code/.claude", present: false },
    ]);
  });

  it("is named for Claude Code, Codex and Qwen Code", () => {
    for (const name of ["claude-code", "codex", "qwen"] as const)
      expect(factsOf(name).managedFiles.length, name).toBeGreaterThan(0);
  });

  it("is none for Gemini CLI, whose system defaults sit beside the system settings the cell moves", () => {
    expect(factsOf("gemini").managedFiles).toEqual([]);
    const cell = { root: "/tmp/cell" } as Parameters<
      ReturnType<typeof driverFor>["launch"]
    >[0]["cell"];
    const { env } = driverFor("gemini").launch({
      argv: [],
      baseUrl: "http://x",
      version: "0.61.0",
      cell,
    });
    expect(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH).toBe("/tmp/cell/gemini-system-settings.json");
  });
});

// Live probes: the real pinned Claude Code and Codex, installed through the vendor cache, offline.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { liveClis } from "../test/support/live-clis.js";
import { cellsRemoved } from "./cell/cell.js";
import type { Observation } from "./contracts/observation.js";
import type { ProbeCliName, ProbeSpec } from "./contracts/probe-spec.js";
import { netnsTools, releaseWarmSlot } from "./isolation/netns.js";
import { runProbe, type RunProbeOptions } from "./run-probe.js";

const clis = liveClis([PINNED["claude-code"], PINNED.codex], "probe");
beforeAll(() => clis.install(), 600_000);

// The namespace prepared for a next spawn would outlive the suite in a torn-down worker.
afterAll(releaseWarmSlot);

function needs(ctx: TestContext, name: ProbeCliName): void {
  clis.need(ctx, name);
}

type SpecInput = Omit<ProbeSpec, "cli" | "fixture" | "script" | "timeoutMs"> &
  Partial<Pick<ProbeSpec, "fixture" | "script" | "timeoutMs">>;

async function probe(name: ProbeCliName, spec: SpecInput, options: RunProbeOptions = {}) {
  const observation = await runProbe(
    {
      cli: PINNED[name],
      fixture: { workspace: "outside-home", trust: true, files: [] },
      script: { turns: [], final: "done", classifier: "allow" },
      timeoutMs: 60_000,
      ...spec,
    },
    { cacheDir: clis.cacheDir, ...options },
  );
  expect(observation.faults, observation.stderrTail).toEqual([]);
  return observation;
}

const marker = (o: Observation, name: string) => o.markers.find((m) => m.name === name);
const sentinel = (o: Observation, name: string) => o.sentinels.find((s) => s.name === name);
const touch: ProbeSpec["script"] = {
  turns: [{ calls: [{ shell: "touch {{sentinel:RAN}}" }] }],
  final: "done",
  classifier: "allow",
};

describe("live: Claude Code", () => {
  it("live: a marker in an appended system prompt file reaches the system prompt; CLAUDE.md reaches the messages", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [
          { at: "workspace", path: "probe-prompt.md", content: "Extra {{marker:SYSTEM_FILE}}" },
          { at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS_CLAUDE_MD}}" },
        ],
      },
      launch: { argv: ["-p", "hello", "--append-system-prompt-file", "probe-prompt.md"] },
    });
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(PINNED["claude-code"].version);
    expect(marker(o, "SYSTEM_FILE")?.seenIn).toContain("system");
    expect(marker(o, "WS_CLAUDE_MD")?.seenIn).toEqual(["messages", "transcript"]);
    const tools = await netnsTools();
    expect(o.isolation).toBe(tools ? "netns" : "loopback-config");
    // The record names the forwarder that bridged the namespace: socat where it is installed.
    expect(o.netnsForwarder).toBe(tools === null ? undefined : tools.socat ? "socat" : "node");
  });

  it("live: workspace and HOME CLAUDE.md reach the model when --setting-sources is omitted, neither under --setting-sources ''", async (ctx) => {
    needs(ctx, "claude-code");
    const fixture = {
      workspace: "outside-home" as const,
      trust: true,
      files: [
        { at: "workspace" as const, path: "CLAUDE.md", content: "Rule {{marker:WS}}" },
        { at: "home" as const, path: ".claude/CLAUDE.md", content: "Rule {{marker:HOME}}" },
      ],
    };
    const loaded = await probe("claude-code", { fixture, launch: { argv: ["-p", "hi"] } });
    const isolated = await probe("claude-code", {
      fixture,
      launch: { argv: ["-p", "hi", "--setting-sources", ""] },
    });
    expect(marker(loaded, "WS")?.seenIn).toContain("messages");
    expect(marker(loaded, "HOME")?.seenIn).toContain("messages");
    expect(marker(isolated, "WS")?.seenIn).toEqual([]);
    expect(marker(isolated, "HOME")?.seenIn).toEqual([]);
  });

  it("live: an allowed Bash call runs: sentinel created, result ran, decision accept", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      script: touch,
      launch: { argv: ["-p", "go", "--allowedTools", "Bash"] },
    });
    expect(sentinel(o, "RAN")?.created).toBe(true);
    expect(o.toolCalls).toMatchObject([
      { name: "Bash", outcome: "ran", permissionDecision: "accept" },
    ]);
    expect(o.toolsOffered).toContain("Bash");
  });

  it("live: a Bash call under --allowedTools Bash creates a workspace sentinel in .witness-sentinels", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [],
        sentinelsIn: { RAN: "workspace" },
      },
      script: touch,
      launch: { argv: ["-p", "go", "--allowedTools", "Bash"] },
    });
    expect(sentinel(o, "RAN")).toEqual({
      name: "RAN",
      path: join(o.cwd, ".witness-sentinels", "RAN"),
      created: true,
      content: "",
    });
    expect(o.toolCalls).toMatchObject([
      { name: "Bash", outcome: "ran", permissionDecision: "accept" },
    ]);
    expect(o.toolCalls[0]?.input).toMatchObject({
      command: `touch ${join(o.cwd, ".witness-sentinels", "RAN")}`,
    });
  });

  it("live: under acceptEdits a touch of a workspace sentinel runs; of a cell sentinel, it is denied as outside the working directories", async (ctx) => {
    needs(ctx, "claude-code");
    const run = (place: "cell" | "workspace") =>
      probe("claude-code", {
        fixture: { workspace: "outside-home", trust: true, files: [], sentinelsIn: { RAN: place } },
        script: touch,
        launch: { argv: ["-p", "go", "--permission-mode", "acceptEdits"] },
      });
    const inside = await run("workspace");
    const outside = await run("cell");
    expect(sentinel(inside, "RAN")?.created).toBe(true);
    expect(inside.toolCalls).toMatchObject([{ outcome: "ran", permissionDecision: "accept" }]);
    expect(sentinel(outside, "RAN")?.created).toBe(false);
    expect(outside.toolCalls).toMatchObject([{ outcome: "denied", permissionDecision: "reject" }]);
    expect(outside.toolCalls[0]?.resultText).toMatch(/outside the working directories/);
  });

  it("live: a script of two tool-call turns plays each turn once: two sentinels, three requests", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      script: {
        turns: [
          { calls: [{ shell: "touch {{sentinel:FIRST}}" }] },
          { calls: [{ shell: "touch {{sentinel:SECOND}}" }] },
        ],
        final: "done",
        classifier: "allow",
      },
      launch: { argv: ["-p", "go", "--allowedTools", "Bash"] },
      timeoutMs: 20_000,
    });
    expect([sentinel(o, "FIRST")?.created, sentinel(o, "SECOND")?.created]).toEqual([true, true]);
    expect(o.toolCalls.map((c) => c.outcome)).toEqual(["ran", "ran"]);
    expect(o.requestCount).toBe(3);
  });

  it("live: Bash under --disallowedTools is not offered and its call gets no such tool", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      script: touch,
      launch: { argv: ["-p", "go", "--disallowedTools", "Bash"] },
    });
    expect(sentinel(o, "RAN")?.created).toBe(false);
    expect(o.toolsOffered).not.toContain("Bash");
    expect(o.toolCalls[0]?.outcome).toBe("no-such-tool");
    expect(o.toolCalls[0]?.resultText).toMatch(/No such tool available: Bash/);
  });

  it("live: a Bash call outside the workspace is denied in default mode, and the transcript says reject", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", { script: touch, launch: { argv: ["-p", "go"] } });
    expect(sentinel(o, "RAN")?.created).toBe(false);
    expect(o.toolCalls).toMatchObject([{ outcome: "denied", permissionDecision: "reject" }]);
    expect(o.toolCalls[0]?.resultText).toMatch(/approval/);
    expect(o.permissionMode).toBe("default");
  });

  it("live: in auto mode the server-side safety verdict decides: allowed runs, flagged is denied", async (ctx) => {
    needs(ctx, "claude-code");
    const launch = { argv: ["-p", "go", "--permission-mode", "auto"] };
    const allowed = await probe("claude-code", {
      script: { ...touch, classifier: "allow" },
      launch,
    });
    const blocked = await probe("claude-code", {
      script: { ...touch, classifier: "block" },
      launch,
    });
    expect(allowed.permissionMode).toBe("auto");
    expect(sentinel(allowed, "RAN")?.created).toBe(true);
    expect(allowed.toolCalls).toMatchObject([{ outcome: "ran", permissionDecision: "accept" }]);
    expect(sentinel(blocked, "RAN")?.created).toBe(false);
    expect(blocked.toolCalls).toMatchObject([{ outcome: "denied", permissionDecision: "reject" }]);
    expect(blocked.toolCalls[0]?.resultText).toContain("witness script blocks this action");
  });

  it("live: the permission mode is read back from the transcript", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      launch: { argv: ["-p", "hi", "--permission-mode", "acceptEdits"] },
    });
    expect(o.permissionMode).toBe("acceptEdits");
    expect(o.sandboxPolicy).toBeNull();
    await cellsRemoved();
    expect(existsSync(o.env.HOME ?? "")).toBe(false);
  });
});

describe("live: Codex", () => {
  it("live: --sandbox read-only blocks a command; AGENTS.md reaches the messages; the rollout says read-only", async (ctx) => {
    needs(ctx, "codex");
    const o = await probe("codex", {
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [{ at: "workspace", path: "AGENTS.md", content: "Rule {{marker:AGENTS_MD}}" }],
      },
      script: touch,
      launch: { argv: ["exec", "--sandbox", "read-only", "go"] },
    });
    expect(o.exitCode).toBe(0);
    expect(o.cli.version).toBe(PINNED.codex.version);
    expect(sentinel(o, "RAN")?.created).toBe(false);
    expect(o.toolCalls).toMatchObject([{ name: "exec", outcome: "denied" }]);
    expect(o.toolCalls[0]?.resultText).toMatch(/Read-only file system/);
    expect(o.sandboxPolicy).toBe("read-only");
    expect(o.permissionMode).toBe("never");
    expect(marker(o, "AGENTS_MD")?.seenIn).toEqual(["messages", "transcript"]);
    expect(o.toolsOffered).toContain("exec.exec_command");
  });

  it("live: --sandbox workspace-write lets the same command run", async (ctx) => {
    needs(ctx, "codex");
    const o = await probe("codex", {
      script: touch,
      launch: { argv: ["exec", "--sandbox", "workspace-write", "go"] },
    });
    expect(sentinel(o, "RAN")?.created).toBe(true);
    expect(o.toolCalls).toMatchObject([{ outcome: "ran" }]);
    expect(o.sandboxPolicy).toBe("workspace-write");
  });

  it("live: Codex loads a trusted workspace's .codex/config.toml, not an untrusted one's, and trust changes exec's default sandbox", async (ctx) => {
    needs(ctx, "codex");
    const files = [
      {
        at: "workspace" as const,
        path: ".codex/config.toml",
        content: 'developer_instructions = "Project {{marker:PROJECT_CONFIG}}"\n',
      },
    ];
    const launch = { argv: ["exec", "hi"] };
    const trusted = await probe("codex", {
      fixture: { workspace: "outside-home", trust: true, files },
      launch,
    });
    const untrusted = await probe("codex", {
      fixture: { workspace: "outside-home", trust: false, files },
      launch,
    });
    expect(marker(trusted, "PROJECT_CONFIG")?.seenIn).toContain("system");
    expect(marker(untrusted, "PROJECT_CONFIG")?.seenIn).toEqual([]);
    expect(trusted.sandboxPolicy).toBe("workspace-write");
    expect(untrusted.sandboxPolicy).toBe("read-only");
  });

  it("live: a scripted truncated stream is observed as the CLI failing, not as an infrastructure fault", async (ctx) => {
    needs(ctx, "codex");
    const o = await probe("codex", {
      script: { turns: [{ fault: { truncate: true } }], final: "done", classifier: "allow" },
      launch: { argv: ["exec", "go"] },
      timeoutMs: 30_000,
    });
    expect(o.exitCode).not.toBe(0);
    expect(o.requestCount).toBeGreaterThan(0);
  });

  it("live: a scripted hang is cut by the probe's timeout and recorded as timed out, not as a fault", async (ctx) => {
    needs(ctx, "codex");
    const o = await probe("codex", {
      script: { turns: [{ fault: { hang: true } }], final: "done", classifier: "allow" },
      launch: { argv: ["exec", "go"] },
      timeoutMs: 3000,
    });
    expect(o.timedOut).toBe(true);
    expect(o.exitCode).toBeNull();
    expect(o.requestCount).toBe(1);
  });
});

describe("live: reference-orchestrator nodes", () => {
  it("live: a planned Claude Code node granting Bash runs it, and its isolation keeps both CLAUDE.md files out", async (ctx) => {
    needs(ctx, "claude-code");
    const o = await probe("claude-code", {
      fixture: {
        workspace: "outside-home",
        trust: true,
        files: [
          { at: "workspace", path: "CLAUDE.md", content: "Rule {{marker:WS}}" },
          { at: "home", path: ".claude/CLAUDE.md", content: "Rule {{marker:HOME}}" },
        ],
      },
      script: touch,
      launch: {
        node: {
          id: "n",
          adapter: "claude-code",
          origin: "planned",
          prompt: "go",
          allowedTools: ["Bash"],
        },
        acceptLoadedUserConfig: false,
      },
    });
    expect(o.argv).toContain("--setting-sources");
    expect(sentinel(o, "RAN")?.created).toBe(true);
    expect(o.toolsOffered).toContain("Bash");
    expect(marker(o, "WS")?.seenIn).toEqual([]);
    expect(marker(o, "HOME")?.seenIn).toEqual([]);
  });

  it("live: a Codex node with a read-only filesystem policy is sandboxed read-only and its write is blocked", async (ctx) => {
    needs(ctx, "codex");
    const o = await probe("codex", {
      script: touch,
      launch: {
        node: {
          id: "n",
          adapter: "codex",
          origin: "planned",
          prompt: "go",
          filesystem: "read-only",
        },
        acceptLoadedUserConfig: false,
      },
    });
    expect(o.argv).toContain("read-only");
    expect(o.sandboxPolicy).toBe("read-only");
    expect(sentinel(o, "RAN")?.created).toBe(false);
    expect(o.toolCalls).toMatchObject([{ outcome: "denied" }]);
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile() && (await stat(path)).size < 16 * 1024 * 1024) out.push(path);
  }
  return out;
}

describe("live: isolation from the operator", () => {
  it("live: markers planted in the test process's own HOME never appear in any observation or cell file", async (ctx) => {
    const ready = clis.ready();
    if (ready.length === 0) ctx.skip("neither pinned CLI could be installed");
    const operator = await mkdtemp(join(tmpdir(), "witness-operator-home-"));
    const value = `WITNESS-OPERATOR-${Date.now().toString(36)}`;
    const saved = {
      HOME: process.env.HOME,
      CODEX_HOME: process.env.CODEX_HOME,
      CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR,
    };
    await mkdir(join(operator, ".claude"), { recursive: true });
    await mkdir(join(operator, ".codex"), { recursive: true });
    await writeFile(join(operator, ".claude", "CLAUDE.md"), `Operator rule ${value}`);
    await writeFile(join(operator, ".codex", "AGENTS.md"), `Operator rule ${value}`);
    await writeFile(join(operator, ".claude.json"), JSON.stringify({ note: value }));
    process.env.HOME = operator;
    process.env.CODEX_HOME = join(operator, ".codex");
    process.env.CLAUDE_CONFIG_DIR = join(operator, ".claude");
    try {
      for (const name of ready) {
        const kept: string[] = [];
        const argv = name === "codex" ? ["exec", "hi"] : ["-p", "hi"];
        const o = await probe(
          name,
          { launch: { argv } },
          { keep: true, onCellKept: (d) => kept.push(d) },
        );
        expect(JSON.stringify(o)).not.toContain(value);
        expect(o.env.HOME?.startsWith(`${tmpdir()}/witness-cell-`)).toBe(true);
        for (const cell of kept) {
          try {
            for (const file of await filesUnder(cell)) {
              expect((await readFile(file)).includes(value), file).toBe(false);
            }
          } finally {
            await rm(cell, { recursive: true, force: true });
          }
        }
        expect(kept).toHaveLength(1);
      }
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await rm(operator, { recursive: true, force: true });
    }
  });
});

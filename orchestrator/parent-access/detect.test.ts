import { appendFile, copyFile, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import {
  homeWith,
  type Recorded,
  recorded,
  removeHomes,
  sessionIdOf,
} from "../../test/support/recorded-transcripts.js";
import { parseNoNewPrivs } from "./confinement.js";
import { createParentAccessDetector, detectParentAccess } from "./detect.js";

afterAll(removeHomes);

const STATUS_CLEAR = "Name:\tnode\nSeccomp:\t0\nNoNewPrivs:\t0\n";
const STATUS_SET = "Name:\tnode\nSeccomp:\t2\nNoNewPrivs:\t1\n";

// Claude Code records the permission mode on its prompt records from 2.1.17 on.
const recordsMode = (run: Recorded) => run.cli === "codex" || /^2\.1\./.test(run.version);

/** Fixtures of one scenario from versions that record the policy, at least two of them. */
function only(cli: Recorded["cli"], scenario: string): Recorded[] {
  const runs = recorded(cli, scenario).filter(recordsMode);
  if (runs.length < 2) throw new Error(`expected ${cli} ${scenario} fixtures from two versions`);
  return runs;
}

/** The environment a child of the recorded session would inherit (HOME plus its markers). */
function envOf(home: string, ...runs: Recorded[]): Record<string, string> {
  const env: Record<string, string> = { HOME: home, PATH: "/usr/bin" };
  for (const run of runs) {
    if (run.cli === "codex") {
      Object.assign(env, {
        CODEX_HOME: join(home, ".codex"),
        CODEX_THREAD_ID: sessionIdOf(run),
        CODEX_SESSION_ID: sessionIdOf(run),
      });
    } else {
      Object.assign(env, { CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: sessionIdOf(run) });
    }
  }
  return env;
}

async function detect(
  env: Record<string, string>,
  status: string | null = STATUS_CLEAR,
  platform: NodeJS.Platform = "linux",
) {
  return detectParentAccess({ env, platform, readProcStatus: () => Promise.resolve(status) });
}

describe("a Codex parent", () => {
  for (const run of only("codex", "ran")) {
    it(`${run.name}: a rollout whose latest turn context is danger-full-access is full access`, async () => {
      const access = await detect(envOf(await homeWith(run), run));
      expect(access.fullAccess).toBe(true);
      expect(access.evidence.map((e) => [e.source, e.passed])).toEqual([
        ["no_new_privs", true],
        ["CODEX_SANDBOX", true],
        ["codex-rollout", true],
      ]);
      expect(access.evidence[2]?.detail).toContain("danger-full-access");
    });

    it(`${run.name}: off Linux the rollout alone establishes full access`, async () => {
      const access = await detect(envOf(await homeWith(run), run), null, "darwin");
      expect(access.fullAccess).toBe(true);
      expect(access.evidence.map((e) => e.source)).not.toContain("no_new_privs");
    });
  }

  for (const run of only("codex", "sandbox")) {
    it(`${run.name}: a read-only rollout is sandboxed`, async () => {
      const access = await detect(envOf(await homeWith(run), run));
      expect(access.fullAccess).toBe(false);
      expect(access.evidence.find((e) => e.source === "codex-rollout")).toMatchObject({
        passed: false,
        detail: expect.stringContaining("read-only") as string,
      });
    });
  }

  for (const run of only("codex", "text")) {
    it(`${run.name}: a workspace-write rollout is sandboxed`, async () => {
      const access = await detect(envOf(await homeWith(run), run));
      expect(access.fullAccess).toBe(false);
      expect(access.evidence.at(-1)?.detail).toMatch(/sandbox_policy is workspace-write$/);
    });
  }

  it("follows the latest turn context when the policy changed during the session", async () => {
    const [run] = only("codex", "ran");
    const home = await homeWith(run!);
    const path = join(home, run!.meta.sessionPath);
    const turn = (type: string) =>
      JSON.stringify({ type: "turn_context", payload: { sandbox_policy: { type } } });
    await appendFile(path, `${turn("workspace-write")}\n`);
    expect((await detect(envOf(home, run!))).fullAccess).toBe(false);
    await appendFile(path, `${turn("danger-full-access")}\n`);
    expect((await detect(envOf(home, run!))).fullAccess).toBe(true);
  });

  it("finds a Windows Codex home seen from WSL under the drive mount", async () => {
    const [run] = only("codex", "ran");
    const mount = await homeWith();
    const target = join(mount, "c", "Users", "me", run!.meta.sessionPath);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(run!.file, target);
    const env = {
      HOME: "/home/me",
      CODEX_HOME: "C:\\Users\\me\\.codex",
      CODEX_THREAD_ID: sessionIdOf(run!),
    };
    const options = {
      env,
      platform: "linux" as const,
      readProcStatus: () => Promise.resolve(STATUS_CLEAR),
    };
    const access = await detectParentAccess({ ...options, wslMountRoot: mount });
    expect(access.fullAccess).toBe(true);
    expect(access.evidence.at(-1)?.detail).toContain(join(mount, "c", "Users", "me", ".codex"));
    expect(
      (await detectParentAccess({ ...options, wslMountRoot: join(mount, "elsewhere") })).fullAccess,
    ).toBe(false);
  });

  it("is sandboxed under no_new_privs even with a full-access rollout", async () => {
    const [run] = only("codex", "ran");
    const access = await detect(envOf(await homeWith(run!), run!), STATUS_SET);
    expect(access.fullAccess).toBe(false);
    expect(access.evidence[0]).toMatchObject({ source: "no_new_privs", passed: false });
  });

  it("is sandboxed when a CODEX_SANDBOX* variable is set", async () => {
    const [run] = only("codex", "ran");
    const env = { ...envOf(await homeWith(run!), run!), CODEX_SANDBOX_NETWORK_DISABLED: "1" };
    const access = await detect(env);
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.find((e) => e.source === "CODEX_SANDBOX")).toMatchObject({
      passed: false,
      detail: expect.stringContaining("CODEX_SANDBOX_NETWORK_DISABLED=1") as string,
    });
  });

  it("is sandboxed when the thread's rollout is missing", async () => {
    const [run] = only("codex", "ran");
    const access = await detect(envOf(await homeWith(), run!));
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)?.detail).toMatch(/no rollout under/);
  });

  it("is sandboxed when the rollout has no turn context", async () => {
    const home = await homeWith();
    const id = "01a22b69-a30e-7733-af83-bd8d96292346";
    const dir = join(home, ".codex", "sessions", "2026", "11", "30");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, `rollout-2026-11-30T07-44-33-${id}.jsonl`),
      '{"type":"session_meta","payload":{"id":"x"}}\n',
    );
    const access = await detect({ HOME: home, CODEX_THREAD_ID: id });
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)?.detail).toMatch(/no turn_context record/);
  });
});

describe("a Claude Code parent", () => {
  for (const run of only("claude-code", "ran")) {
    it(`${run.name}: a transcript in bypassPermissions on Linux without no_new_privs is full access`, async () => {
      const access = await detect(envOf(await homeWith(run), run));
      expect(access.fullAccess).toBe(true);
      expect(access.evidence.find((e) => e.source === "claude-transcript")?.detail).toContain(
        "bypassPermissions",
      );
    });

    it(`${run.name}: off Linux its Bash sandbox cannot be ruled out, so it stays sandboxed`, async () => {
      const access = await detect(envOf(await homeWith(run), run), null, "darwin");
      expect(access.fullAccess).toBe(false);
      expect(access.evidence.find((e) => e.source === "claude-transcript")).toMatchObject({
        passed: false,
        detail: expect.stringContaining("confinement unknown") as string,
      });
    });
  }

  for (const run of only("claude-code", "denied")) {
    it(`${run.name}: a transcript in default mode is sandboxed`, async () => {
      const access = await detect(envOf(await homeWith(run), run));
      expect(access.fullAccess).toBe(false);
      expect(access.evidence.find((e) => e.source === "claude-transcript")?.detail).toMatch(
        /permissionMode is default$/,
      );
    });
  }

  for (const run of recorded("claude-code", "ran").filter((r) => !recordsMode(r))) {
    it(`${run.name}: a version that records no permission mode is sandboxed, even in bypassPermissions`, async () => {
      const access = await detect(envOf(await homeWith(run), run));
      expect(access.fullAccess).toBe(false);
      expect(access.evidence.at(-1)?.detail).toMatch(/no prompt record with a permissionMode$/);
    });
  }

  it("reads the main session by its id, not a newer sidechain beside it", async () => {
    const [run] = recorded("claude-code", "ran").filter((r) => r.sidechains.length > 0);
    if (run === undefined) throw new Error("expected a Claude Code fixture with sidechains");
    const home = await homeWith(run);
    const path = join(home, run.meta.sessionPath);
    const prompt = JSON.stringify({
      type: "user",
      sessionId: sessionIdOf(run),
      permissionMode: "bypassPermissions",
      message: { role: "user", content: "go" },
    });
    await appendFile(path, `${prompt}\n`);
    const side = join(home, run.meta.sidechainPaths[0] ?? "");
    const sidePrompt = JSON.stringify({
      type: "user",
      isSidechain: true,
      permissionMode: "default",
      message: { content: "Warmup" },
    });
    await appendFile(side, `${sidePrompt}\n`);
    expect((await detect(envOf(home, run))).fullAccess).toBe(true);
  });

  it("follows the latest prompt record when the mode changed during the session", async () => {
    const [run] = only("claude-code", "ran");
    const home = await homeWith(run!);
    const path = join(home, run!.meta.sessionPath);
    const prompt = (mode: string) =>
      JSON.stringify({
        type: "user",
        permissionMode: mode,
        message: { role: "user", content: "next" },
      });
    await appendFile(path, `${prompt("acceptEdits")}\n`);
    expect((await detect(envOf(home, run!))).fullAccess).toBe(false);
    await appendFile(path, `${prompt("bypassPermissions")}\n`);
    expect((await detect(envOf(home, run!))).fullAccess).toBe(true);
  });

  it("is sandboxed with CLAUDECODE=1 but no session id to find the transcript by", async () => {
    const access = await detect({
      HOME: await homeWith(...only("claude-code", "ran")),
      CLAUDECODE: "1",
    });
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)?.detail).toMatch(/without CLAUDE_CODE_SESSION_ID/);
  });

  it("is sandboxed when the transcript is missing", async () => {
    const [run] = only("claude-code", "ran");
    const access = await detect(envOf(await homeWith(), run!));
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)?.detail).toMatch(/no transcript under/);
  });

  it("is sandboxed when the transcript has no prompt record", async () => {
    const home = await homeWith();
    await mkdir(join(home, ".claude", "projects", "-w"), { recursive: true });
    await writeFile(
      join(home, ".claude", "projects", "-w", "abc-123.jsonl"),
      '{"type":"queue-operation"}\n',
    );
    const access = await detect({ HOME: home, CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "abc-123" });
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)?.detail).toMatch(/no prompt record with a permissionMode/);
  });

  it("is sandboxed when the transcript exists but cannot be read", async () => {
    const [run] = only("claude-code", "ran");
    const denied = Object.assign(new Error("permission denied"), { code: "EACCES" });
    const access = await detectParentAccess({
      env: envOf(await homeWith(run!), run!),
      platform: "linux",
      readProcStatus: () => Promise.resolve(STATUS_CLEAR),
      readers: { latestClaudePermissionMode: () => Promise.reject(denied) },
    });
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)?.detail).toMatch(/cannot read the transcript \(EACCES\)$/);
  });

  it("is sandboxed when /proc/self/status cannot be read on Linux", async () => {
    const [run] = only("claude-code", "ran");
    const access = await detect(envOf(await homeWith(run!), run!), null);
    expect(access.fullAccess).toBe(false);
    expect(access.evidence[0]).toMatchObject({ source: "no_new_privs", passed: false });
  });
});

describe("nested and absent markers", () => {
  it("passes when both a Codex and a Claude Code marker record full access", async () => {
    const [codex] = only("codex", "ran");
    const [claude] = only("claude-code", "ran");
    const access = await detect(envOf(await homeWith(codex!, claude!), codex!, claude!));
    expect(access.fullAccess).toBe(true);
    expect(
      access.evidence.filter((e) => e.source !== "no_new_privs" && e.source !== "CODEX_SANDBOX"),
    ).toHaveLength(2);
  });

  it("is sandboxed when one of two markers fails (an inner full-access session inside a sandboxed one)", async () => {
    const [codex] = only("codex", "sandbox");
    const [claude] = only("claude-code", "ran");
    const access = await detect(envOf(await homeWith(codex!, claude!), codex!, claude!));
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.map((e) => [e.source, e.passed])).toEqual([
      ["no_new_privs", true],
      ["CODEX_SANDBOX", true],
      ["codex-rollout", false],
      ["claude-transcript", true],
    ]);
  });

  it("is sandboxed when no session marker is present, whatever else holds", async () => {
    const access = await detect({ HOME: await homeWith(), PATH: "/usr/bin" });
    expect(access.fullAccess).toBe(false);
    expect(access.evidence.at(-1)).toMatchObject({ source: "session-marker", passed: false });
  });

  it("checks each distinct Codex thread id the environment names", async () => {
    const [full] = only("codex", "ran");
    const [readOnly] = only("codex", "sandbox");
    const home = await homeWith(full!, readOnly!);
    const env = {
      HOME: home,
      CODEX_THREAD_ID: sessionIdOf(full!),
      CODEX_SESSION_ID: sessionIdOf(readOnly!),
    };
    const access = await detect(env);
    expect(
      access.evidence.filter((e) => e.source === "codex-rollout").map((e) => e.passed),
    ).toEqual([true, false]);
    expect(access.fullAccess).toBe(false);
  });
});

describe("the detector plumbing", () => {
  it("createParentAccessDetector answers like detectParentAccess", async () => {
    const [run] = only("codex", "ran");
    const options = {
      env: envOf(await homeWith(run!), run!),
      platform: "linux" as const,
      readProcStatus: () => Promise.resolve(STATUS_CLEAR),
    };
    expect(await createParentAccessDetector(options).detect()).toEqual(
      await detectParentAccess(options),
    );
  });

  it.each([
    [STATUS_CLEAR, false],
    [STATUS_SET, true],
    ["NoNewPrivs:  1\n", true],
    ["Name:\tnode\n", null],
  ])("parseNoNewPrivs reads %j as %j", (text, expected) => {
    expect(parseNoNewPrivs(text)).toBe(expected);
  });
});

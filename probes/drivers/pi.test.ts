import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { FIXTURES_DIR } from "../../test/support/recorded-transcripts.js";
import { PI_MODEL, PI_PROVIDER, piDriver, piRejectedArgv } from "./pi.js";

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});
async function cell() {
  dir = await mkdtemp(join(tmpdir(), "witness-pi-driver-"));
  const home = join(dir, "home");
  return { root: dir, home, workspace: join(dir, "ws"), codexHome: join(home, ".codex") };
}

describe("the pi driver", () => {
  it("points pi's default provider at the fake in models.json and settings.json, keeping the fixture's own keys", async () => {
    const c = await cell();
    const agent = join(c.home, ".pi", "agent");
    await mkdir(agent, { recursive: true });
    await writeFile(
      join(agent, "settings.json"),
      JSON.stringify({ theme: "dark", defaultModel: "x" }),
    );
    await piDriver.prepare?.({
      cell: c,
      env: { HOME: c.home },
      baseUrl: "http://127.0.0.1:9",
      version: "0.73.1",
    });
    const models = JSON.parse(await readFile(join(agent, "models.json"), "utf8")) as {
      providers: Record<string, { baseUrl: string; api: string }>;
    };
    expect(models.providers[PI_PROVIDER]).toMatchObject({
      baseUrl: "http://127.0.0.1:9/v1",
      api: "openai-completions",
    });
    expect(JSON.parse(await readFile(join(agent, "settings.json"), "utf8"))).toEqual({
      theme: "dark",
      defaultProvider: PI_PROVIDER,
      defaultModel: PI_MODEL,
      retry: { enabled: false, provider: { maxRetries: 0 } },
    });
  });

  it("trusts the workspace in ~/.pi/agent/trust.json for 0.79.0 on, keeping the fixture's entries, and writes nothing before", async () => {
    const c = await cell();
    await mkdir(c.workspace, { recursive: true });
    const agent = join(c.home, ".pi", "agent");
    await piDriver.trustWorkspace(c, "0.78.1");
    expect(existsSync(join(agent, "trust.json"))).toBe(false);
    await mkdir(agent, { recursive: true });
    await writeFile(join(agent, "trust.json"), JSON.stringify({ "/elsewhere": false }));
    await piDriver.trustWorkspace(c, "1.6.0");
    expect(JSON.parse(await readFile(join(agent, "trust.json"), "utf8"))).toEqual({
      "/elsewhere": false,
      [await realpath(c.workspace)]: true,
    });
    // An arm that moves the agent directory gets the grant there too.
    const moved = join(c.root, "moved");
    await piDriver.prepare?.({
      cell: c,
      env: { HOME: c.home, PI_CODING_AGENT_DIR: moved },
      baseUrl: "http://h",
      version: "1.6.0",
    });
    expect(JSON.parse(await readFile(join(moved, "trust.json"), "utf8"))).toMatchObject({
      [await realpath(c.workspace)]: true,
    });
  });

  it("writes into PI_CODING_AGENT_DIR when the launch sets it", async () => {
    const c = await cell();
    const agent = join(c.root, "elsewhere");
    await piDriver.prepare?.({
      cell: c,
      env: { HOME: c.home, PI_CODING_AGENT_DIR: agent },
      baseUrl: "http://h",
      version: "0",
    });
    expect(await readFile(join(agent, "models.json"), "utf8")).toContain("http://h/v1");
  });

  it("passes argv and stdin through and adds the quiet switches", () => {
    const launched = piDriver.launch({
      argv: ["-p", "--no-skills"],
      baseUrl: "http://h",
      version: "0",
      stdin: "-x",
    });
    expect(launched).toEqual({
      args: ["-p", "--no-skills"],
      env: { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" },
      stdin: "-x",
    });
  });

  it("reads the outcome of each call from the recorded session: ran, error (exit 3), no-such-tool", async () => {
    const c = await cell();
    const target = join(c.home, ".pi", "agent", "sessions", "--ws--");
    await mkdir(target, { recursive: true });
    await copyFile(join(FIXTURES_DIR, "pi-0.73.1-tools", "session.jsonl"), join(target, "s.jsonl"));
    const facts = await piDriver.readTranscript(
      { HOME: c.home },
      { markers: [], stdout: "", stderr: "" },
    );
    const outcomes = ["call_w0_0", "call_w0_1", "call_w0_2", "call_w0_3"].map((id) => {
      const recorded = facts.calls.get(id) ?? null;
      const text = recorded?.result?.text;
      const wire = text === undefined ? null : { isError: false, text };
      return piDriver.classify({ wire, recorded }).outcome;
    });
    expect(outcomes).toEqual(["ran", "ran", "error", "no-such-tool"]);
  });

  it.each([
    [null, null, "unknown"],
    [{ isError: false, text: "Tool bash not found" }, null, "no-such-tool"],
    [{ isError: false, text: "out\n\nCommand exited with code 2" }, null, "error"],
    [{ isError: false, text: "(no output)" }, null, "ran"],
    [null, { isError: true, text: "EEXIST: file already exists" }, "error"],
  ] as const)("without a session record, reads %j / %j as %s", (result, recorded, outcome) => {
    const record = recorded === null ? null : { result: recorded };
    expect(piDriver.classify({ wire: result, recorded: record }).outcome).toBe(outcome);
  });

  it("reads the option pi refused (0.78.1 has no --approve)", () => {
    expect(piRejectedArgv("Error: Unknown option: --approve\n")).toEqual({
      flag: "--approve",
      message: "Error: Unknown option: --approve",
    });
    expect(piRejectedArgv("500 witness scripted fault\n")).toBeNull();
  });
});

// The CLI catalog against the mechanisms keyed by it: every capability a row claims exists, every
// one it lacks says why, and the facts' directories resolve where the readers look.
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { CLI_CATALOG, type CliRow } from "../clis/catalog.js";
import { classifierFor } from "../clis/classify.js";
import { resolveDir } from "../clis/facts.js";
import { factsOf } from "../clis/facts-by-cli.js";
import {
  ADAPTER_NAMES,
  CLI_NAMES,
  isProbeCli,
  packageFor,
  PROBE_CLI_NAMES,
  TRANSCRIPT_CLI_NAMES,
} from "../clis/names.js";
import { PINNED } from "../clis/pinned.js";
import { planLaunch } from "../orchestrator/plan/plan-launch.js";
import { AMBIENT_SUPPORT } from "../orchestrator/policy/ambient-support.js";
import { driverFor } from "../probes/drivers/index.js";
import { copilotHomeDir } from "../transcripts/copilot-session.js";
import { geminiHomeDir } from "../transcripts/gemini-chat.js";
import { claudeConfigDir, codexHomeDir } from "../transcripts/locate.js";
import { opencodeDbPath } from "../transcripts/opencode-session.js";
import { piAgentDir } from "../transcripts/pi-session.js";
import { qwenRuntimeDir } from "../transcripts/qwen-chat.js";

const rows = Object.entries(CLI_CATALOG as Record<string, CliRow>);

describe("the CLI catalog", () => {
  it.each(rows)("%s: every capability it lacks says why", (name, row) => {
    for (const key of ["probe", "transcript", "adapter"] as const) {
      const capability = row[key];
      if (capability !== true)
        expect(capability.lacks.length, `${name}.${key}`).toBeGreaterThan(10);
    }
  });

  it.each(PROBE_CLI_NAMES)("%s: has a driver for it, a pinned version and a package", (name) => {
    const driver = driverFor(name);
    expect(driver.name).toBe(name);
    expect(driver.info).toBe(CLI_CATALOG[name]);
    expect(PINNED[name].version).toMatch(/^\d+\.\d+\.\d+/);
    expect(CLI_CATALOG[name].packages.map((p) => p.name)).toContain(
      packageFor(name, PINNED[name].version),
    );
  });

  it.each(TRANSCRIPT_CLI_NAMES)("%s: its driver and its reader share one classifier", (name) => {
    if (isProbeCli(name)) expect(driverFor(name).classify).toBe(classifierFor(name));
  });

  it.each(ADAPTER_NAMES)("%s: the reference orchestrator renders a node for it", async (name) => {
    const plan = await planLaunch({
      node: { id: "n", adapter: name, prompt: "hi", model: "m" },
      cwd: "/tmp",
      env: { HOME: "/nonexistent-home" },
    });
    expect(plan.file.length).toBeGreaterThan(0);
  });

  it("rules on every CLI in the ambient support table", () => {
    expect(Object.keys(AMBIENT_SUPPORT).sort()).toEqual([...CLI_NAMES].sort());
  });

  it("knows pi under both of its packages, by version", () => {
    expect(packageFor("pi", "0.73.1")).toBe("@mariozechner/pi-coding-agent");
    expect(packageFor("pi", "0.74.0")).toBe("@earendil-works/pi-coding-agent");
    expect(packageFor("pi", "1.6.0")).toBe("@earendil-works/pi-coding-agent");
  });
});

describe("the facts' directories, where the session readers look", () => {
  const envs: Record<string, string>[] = [
    { HOME: "/h" },
    {
      HOME: "/h",
      CLAUDE_CONFIG_DIR: "/c",
      CODEX_HOME: "/x",
      GEMINI_CLI_HOME: "/g",
      QWEN_HOME: "/q",
      PI_CODING_AGENT_DIR: "/p",
      XDG_DATA_HOME: "/d",
      OPENCODE_DB: "/o.db",
      COPILOT_HOME: "/k",
    },
    { HOME: "/h", QWEN_RUNTIME_DIR: "/r", QWEN_HOME: "/q" },
    {},
  ];
  const sessions = (name: Parameters<typeof factsOf>[0], env: Record<string, string>) => {
    const rule = factsOf(name).sessions;
    return rule === null ? null : resolveDir(rule, env);
  };
  const under = (dir: string | null, ...rest: string[]) =>
    dir === null ? null : join(dir, ...rest);

  it.each(envs)("agree for %j", (env) => {
    expect(sessions("claude-code", env)).toBe(under(claudeConfigDir(env), "projects"));
    expect(sessions("codex", env)).toBe(under(codexHomeDir(env), "sessions"));
    expect(sessions("gemini", env)).toBe(under(geminiHomeDir(env), ".gemini", "tmp"));
    expect(sessions("qwen", env)).toBe(under(qwenRuntimeDir(env), "projects"));
    expect(sessions("pi", env)).toBe(under(piAgentDir(env), "sessions"));
    expect(sessions("opencode", env)).toBe(opencodeDbPath(env));
    expect(sessions("copilot", env)).toBe(under(copilotHomeDir(env), "session-state"));
    expect(sessions("kilo", env)).toBe(opencodeDbPath(env, "kilo"));
  });
});

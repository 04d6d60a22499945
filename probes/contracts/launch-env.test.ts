import { describe, expect, it } from "vitest";

import { applyLaunchEnv, launchEnvProblems, protectedEnvReason } from "./launch-env.js";

describe("an arm's own environment", () => {
  it("sets over the cell's variables and then removes the unset ones, IS_SANDBOX included", () => {
    const cell = { HOME: "/c/home", IS_SANDBOX: "1", PATH: "/bin" };
    expect(applyLaunchEnv(cell, { set: { LANG: "C", PATH: "/x" }, unset: ["IS_SANDBOX"] })).toEqual(
      {
        HOME: "/c/home",
        PATH: "/x",
        LANG: "C",
      },
    );
    expect(applyLaunchEnv(cell, undefined)).toEqual(cell);
  });

  it.each([
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "TMPDIR",
    "CODEX_HOME",
    "CLAUDE_CONFIG_DIR",
    "GIT_CONFIG_GLOBAL",
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
  ])("refuses %s by name", (name) => {
    expect(protectedEnvReason(name)).toContain(name);
  });

  it.each(["IS_SANDBOX", "LANG", "PATH", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"])(
    "lets a protocol change %s",
    (name) => {
      expect(protectedEnvReason(name)).toBeNull();
    },
  );

  it("names each bad entry by its place, and a variable both set and unset", () => {
    const problems = launchEnvProblems({
      set: { "BAD-NAME": "x", TMPDIR: "/t" },
      unset: ["IS_SANDBOX", "LANG"],
    });
    expect(problems.map((p) => p.path)).toEqual([
      ["set", "BAD-NAME"],
      ["set", "TMPDIR"],
    ]);
    expect(problems[1]?.message).toBe(
      "expected a variable the cell does not own; TMPDIR is the cell's own (its HOME, config, temp or git isolation)",
    );
    expect(launchEnvProblems({ set: { LANG: "C" }, unset: ["LANG"] })).toEqual([
      { path: ["unset", 0], message: "expected LANG in set or in unset, not both" },
    ]);
  });
});

import { existsSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { run } from "../test/support/temp-dir.js";
import type { AsymmetricMatcher } from "./assertions.js";
import { withShims } from "./vitest.js";

describe("withShims", () => {
  it("puts the shims first on PATH inside the scope, then restores PATH and deletes them", async () => {
    const before = process.env.PATH;
    let dir = "";
    await withShims({ claude: { stdout: "hi" } }, async (shims) => {
      dir = shims.dir;
      expect(process.env.PATH?.startsWith(`${shims.dir}:`)).toBe(true);
      // Code under test finds `claude` by name through PATH.
      const result = await run("claude", ["-p", "a b"], { env: shims.env });
      expect(result.stdout).toBe("hi");
      expect(shims).toHaveSpawned("claude", { argv: ["-p", "a b"] });
      expect(shims).not.toHaveSpawned("claude", { argv: ["-p", "a", "b"] });
    });
    expect(process.env.PATH).toBe(before);
    expect(existsSync(dir)).toBe(false);
  });

  it("shows expected and actual argv side by side when toHaveSpawned fails", async () => {
    await withShims({ claude: {} }, async (shims) => {
      await run("claude", ["--model", "opus"], { env: shims.env });
      expect(() => expect(shims).toHaveSpawned("claude", { argv: ["--model", "sonnet"] })).toThrow(
        /1 "sonnet"\s+≠ "opus"/,
      );
      expect(() => expect(shims.read()).toHaveSpawned("codex")).toThrow(/codex was never called/);
      expect(shims.log).toHaveSpawned("claude", { argv: ["--model", "opus"] });
    });
  });

  it("honours asymmetric matchers anywhere in the argv and the env", async () => {
    // vitest types its matchers as any; typed once here so the assertions stay checked.
    const contains = (s: string) => expect.stringContaining(s) as AsymmetricMatcher;
    const matching = (r: RegExp) => expect.stringMatching(r) as AsymmetricMatcher;
    const containing = (a: string[]) => expect.arrayContaining(a) as AsymmetricMatcher;
    const anyString = () => expect.any(String) as AsymmetricMatcher;
    await withShims({ claude: {} }, async (shims) => {
      await run("claude", ["-p", "Review /home/ci/work/repo", "--model", "opus"], {
        env: { ...shims.env, ANTHROPIC_BASE_URL: "http://127.0.0.1:4242" },
      });
      expect(shims).toHaveSpawned("claude", {
        argv: ["-p", contains("Review"), "--model", anyString()],
        env: { ANTHROPIC_BASE_URL: matching(/^http:\/\/127\.0\.0\.1:\d+$/) },
      });
      expect(shims).toHaveSpawned("claude", { argv: containing(["--model"]) });
      expect(() =>
        expect(shims).toHaveSpawned("claude", {
          argv: ["-p", contains("Fix"), "--model", "opus"],
        }),
      ).toThrow(/1 StringContaining "Fix"\s+≠ "Review/);
      expect(() =>
        expect(shims).toHaveSpawned("claude", {
          env: { ANTHROPIC_BASE_URL: contains("example") },
        }),
      ).toThrow(/env ANTHROPIC_BASE_URL: expected StringContaining "example", actual "http/);
    });
  });

  it("detects an unmet plan, and a plan met in full", async () => {
    await withShims(
      { claude: { plan: [{ stdout: "1" }, { stdout: "2" }] }, codex: { plan: [{}] } },
      async (shims) => {
        await run("claude", [], { env: shims.env });
        expect(() => expect(shims).toHaveMetPlan()).toThrow(
          /claude: plan of 2 call\(s\), call\(s\) 2 never arrived/,
        );
        expect(() => expect(shims).toHaveMetPlan("codex")).toThrow(
          /codex: plan of 1 call\(s\), call\(s\) 1 never arrived/,
        );
        await run("claude", [], { env: shims.env });
        await run("codex", [], { env: shims.env });
        expect(shims).toHaveMetPlan();
        expect(shims.unmetPlans()).toEqual([]);
      },
    );
  });

  it("passes through to the real binary when asked", async () => {
    await withShims({ sh: { passThrough: true } }, async (shims) => {
      const result = await run("sh", ["-c", "echo real"], { env: shims.env });
      expect(result.stdout).toBe("real\n");
      expect(shims).toHaveSpawned("sh", { argv: ["-c", "echo real"] });
      expect(join(shims.dir, "sh")).not.toBe(shims.read().records[0]?.target);
    });
  });
});

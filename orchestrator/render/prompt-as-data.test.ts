// Whole-argv tests: a prompt that looks like a flag stays a prompt on every adapter.
import { beforeAll, describe, expect, it } from "vitest";

import { type TempWorkspace, tempWorkspace } from "../../test/support/temp-workspace.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { Adapter } from "../spec/schemas.js";

let repo: TempWorkspace;
beforeAll(() => {
  repo = tempWorkspace();
});

const PROMPTS = ["-x", "--help", "--model evil", "@README.md", "-- --help"];

function plan(adapter: Adapter, prompt: string, origin: "planned" | "hand-written") {
  return planLaunch({
    node: { id: "n", adapter, origin, prompt, model: "m", allowedTools: ["Bash", "Read"] },
    cwd: repo.root,
    env: { HOME: repo.home },
    // Every adapter renders a planned node once the operator opted in to loaded configuration.
    run: { acceptLoadedUserConfig: true },
  });
}

describe("the prompt is data", () => {
  for (const origin of ["planned", "hand-written"] as const) {
    for (const adapter of ["claude-code", "codex"] as const) {
      it.each(PROMPTS)(`${adapter} (${origin}): %j comes last, after --`, async (prompt) => {
        const p = await plan(adapter, prompt, origin);
        expect(p.args.slice(-2)).toEqual(["--", prompt]);
        // The only `--` ends the options: nothing before it is the prompt.
        expect(p.args.indexOf("--")).toBe(p.args.length - 2);
        expect(p.args.slice(0, -1)).not.toContain(prompt);
        expect(p.stdin).toBeUndefined();
      });
    }

    for (const adapter of ["opencode", "pi", "gemini", "qwen"] as const) {
      it.each(PROMPTS)(
        `${adapter} (${origin}): %j goes on stdin, never in the argv`,
        async (prompt) => {
          const p = await plan(adapter, prompt, origin);
          expect(p.stdin).toBe(prompt);
          // The argv is the one an ordinary prompt gets: the prompt has no say in it.
          expect(p.args).toEqual((await plan(adapter, "ordinary", origin)).args);
        },
      );
    }

    it.each(PROMPTS.filter((p) => p.startsWith("-")))(
      `cursor (${origin}): %j is refused, since its parsing of such a prompt was never measured`,
      async (prompt) => {
        await expect(plan("cursor", prompt, origin)).rejects.toMatchObject({
          name: "RefusalError",
          code: "prompt-not-data",
        });
      },
    );
  }

  it("cursor takes an ordinary prompt as its last argument", async () => {
    const p = await plan("cursor", "@README.md explain", "hand-written");
    expect(p.args.at(-1)).toBe("@README.md explain");
  });
});

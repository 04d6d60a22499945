// Whole-argv tests at the probe's end: once a driver has added what points its CLI at the fake
// server, a prompt that looks like a flag is still the argv's last word after `--`, or on stdin.
import { describe, expect, it } from "vitest";

import type { ProbeCliName } from "../../clis/names.js";
import { PINNED } from "../../clis/pinned.js";
import { planLaunch } from "../../orchestrator/plan/plan-launch.js";
import { type TempWorkspace, tempWorkspace } from "../../test/support/temp-workspace.js";
import { driverFor } from "./index.js";

const PROMPTS = ["-x", "--help", "--model evil"];
const repo: TempWorkspace = tempWorkspace();
const cell = { root: repo.root, home: repo.home, workspace: repo.root, codexHome: repo.home };

async function whole(name: ProbeCliName, prompt: string) {
  const plan = await planLaunch({
    node: { id: "n", adapter: name, origin: "planned", prompt, model: "m", allowedTools: ["Bash"] },
    cwd: repo.root,
    env: { HOME: repo.home },
    run: { acceptLoadedUserConfig: true },
  });
  const version = (PINNED as Partial<Record<ProbeCliName, { version: string }>>)[name]?.version;
  return driverFor(name).launch({
    argv: plan.args,
    ...(plan.stdin === undefined ? {} : { stdin: plan.stdin }),
    baseUrl: "http://127.0.0.1:1",
    version: version ?? "1.0.0",
    cell,
  });
}

describe("the prompt is data in the argv a probe spawns", () => {
  for (const name of ["claude-code", "codex"] as const) {
    it.each(PROMPTS)(`${name}: %j is the last argument, after the only --`, async (prompt) => {
      const launched = await whole(name, prompt);
      expect(launched.args.slice(-2)).toEqual(["--", prompt]);
      expect(launched.args.indexOf("--")).toBe(launched.args.length - 2);
      expect(launched.stdin).toBeUndefined();
    });
  }

  for (const name of ["gemini", "qwen", "pi", "opencode"] as const) {
    it.each(PROMPTS)(
      `${name}: %j goes on stdin, and the argv is an ordinary prompt's`,
      async (prompt) => {
        const launched = await whole(name, prompt);
        expect(launched.stdin).toBe(prompt);
        expect(launched.args).toEqual((await whole(name, "ordinary")).args);
      },
    );
  }
});

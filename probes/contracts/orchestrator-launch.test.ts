// The orchestrator launch in a probe spec: its shape, the CLIs it may name, its placeholders.
import { describe, expect, it } from "vitest";

import { zodIssues } from "../../core/read-input.js";
import { cliPathVariable, resolveCliPaths } from "./orchestrator-launch.js";
import { probeSpecSchema } from "./probe-spec.js";

const spec = (orchestrator: Record<string, unknown>) => ({
  cli: { name: "claude-code", version: "2.1.332" },
  launch: {
    orchestrator: { command: ["node", "run.mjs"], clis: ["claude-code"], ...orchestrator },
  },
});
const issues = (value: unknown) => {
  const parsed = probeSpecSchema.safeParse(value);
  return parsed.success ? [] : zodIssues(parsed.error).map((i) => `${i.path}: ${i.message}`);
};

describe("orchestrator launch", () => {
  it("accepts a command, the pinned CLI, packages pinned exactly and a bound", () => {
    const packages = ["@anthropic-ai/claude-agent-sdk@0.3.332", "left-pad@1.3.0"];
    expect(
      issues(spec({ packages, maxSpawns: 4, env: { set: { A: "{{path:cli:claude-code}}" } } })),
    ).toEqual([]);
  });

  it.each([
    [{ command: [] }, "launch.orchestrator.command: expected the program and its arguments"],
    [
      { clis: ["codex"] },
      'launch.orchestrator.clis.0: expected the probe\'s pinned CLI (claude-code); got "codex", which has no version pinned here',
    ],
    [
      { packages: ["@anthropic-ai/claude-agent-sdk@^0.3"] },
      "launch.orchestrator.packages.0: expected <package>@<exact version>, e.g. @anthropic-ai/claude-agent-sdk@0.3.332",
    ],
    [{ clis: ["no-such-cli"] }, "launch.orchestrator.clis.0: Invalid option: expected one of"],
    [{ maxSpawns: 1000 }, "launch.orchestrator.maxSpawns: Too big: expected number to be <=256"],
    [
      { command: ["run", "{{path:cli:codex}}"] },
      'launch.orchestrator.command.1: expected {{path:cli:<name>}} naming a CLI of orchestrator.clis (claude-code); got "codex"',
    ],
    [
      { env: { set: { ANTHROPIC_BASE_URL: "x" } } },
      "launch.orchestrator.env.set.ANTHROPIC_BASE_URL",
    ],
  ])("refuses %j", (orchestrator, message) => {
    expect(issues(spec(orchestrator)).join("\n")).toContain(message);
  });

  it("names the variable and resolves the placeholder of each CLI's shim", () => {
    expect(cliPathVariable("claude-code")).toBe("WITNESS_CLI_CLAUDE_CODE");
    expect(
      resolveCliPaths(["--exe={{path:cli:claude-code}}", "{{path:cli:x}}"], {
        "claude-code": "/c/claude",
      }),
    ).toEqual(["--exe=/c/claude", "{{path:cli:x}}"]);
  });
});

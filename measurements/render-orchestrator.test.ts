// The orchestrator and its spawns as the Markdown record writes them.
import { describe, expect, it } from "vitest";

import { marker, observation } from "../test/support/observations.js";
import { orchestratorLines } from "./render-orchestrator.js";

describe("orchestratorLines", () => {
  it("writes nothing for a CLI launched directly", () => {
    expect(orchestratorLines(observation())).toEqual([]);
  });

  it("names the orchestrator's command, packages and files, and each spawn's argv and markers", () => {
    const lines = orchestratorLines(
      observation({
        orchestrator: {
          command: ["node", "run-query.mjs", "user"],
          clis: ["claude-code"],
          packages: [{ name: "@a/sdk", version: "0.3.332", integrity: "sha512-x" }],
          files: [{ path: "ws/run-query.mjs", sha256: "sha256:ab" }],
          maxSpawns: 2,
        },
        spawns: [
          {
            spawn: 1,
            cli: "claude-code",
            argv: ["--setting-sources=user"],
            env: {},
            overridden: ["ANTHROPIC_BASE_URL"],
            cwd: "/w",
            stdin: "{}",
            stdinBytes: 2,
            stdout: "",
            stdoutBytes: 0,
            exitCode: 0,
            signal: null,
            startMs: 1,
            durationMs: 2,
            requestCount: 1,
            markers: [marker("HOME_MD", ["messages"]), marker("WS_MD", [])],
            toolsOffered: [],
            toolCalls: [],
            permissionMode: null,
            transcriptFile: null,
          },
        ],
      }),
    );
    expect(lines).toEqual([
      '- orchestrator: `["node","run-query.mjs","user"]`; may spawn claude-code (at most 2); packages: @a/sdk@0.3.332 (sha512-x); files: ws/run-query.mjs (sha256:ab)',
      '- CLI spawn 1 (claude-code): argv `["--setting-sources=user"]`; exit 0; 1 requests; stdin 2 bytes; witness set ANTHROPIC_BASE_URL over the orchestrator\'s environment; markers: HOME_MD in messages, WS_MD absent',
    ]);
  });

  it("names an unshimmed binary the launch allowed by content hash", () => {
    const orchestrator = {
      command: ["node", "q.mjs"],
      clis: ["claude-code"],
      packages: [],
      files: [],
      maxSpawns: 2,
      unshimmed: [
        {
          path: "node_modules/sdk/claude",
          sha256: "sha256:ab",
          requests: 3,
          userAgents: ["claude-cli/2.1.332"],
        },
      ],
    };
    expect(orchestratorLines(observation({ orchestrator }))[1]).toBe(
      "- unshimmed spawn, allowed by content hash: node_modules/sdk/claude (sha256:ab, the pinned CLI's bytes); 3 requests; user-agent claude-cli/2.1.332",
    );
  });
});

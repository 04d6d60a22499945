// The faults of an orchestrator launch, from what the shims recorded and the fake received.
import { describe, expect, it } from "vitest";

import type { CapturedRequest } from "../fake/server.js";
import { orchestratedFaults } from "./faults.js";
import type { SpawnRecord } from "./spawn-records.js";

const model = (spawn: number | undefined, ua = "claude-cli/2.1.332"): CapturedRequest => ({
  method: "POST",
  path: "/v1/messages",
  headers: { "user-agent": ua },
  body: { messages: [] },
  answer: "final",
  ...(spawn === undefined ? {} : { spawn }),
});
const spawned = (spawn: number, ended = true): SpawnRecord => ({
  spawn,
  call: { cli: "claude-code", argv: [], env: {}, overridden: [], cwd: "/", start: 0 },
  exit: ended ? { exitCode: 0, signal: null, end: 1, stdinBytes: 0, stdoutBytes: 0 } : null,
  stdin: "",
  stdout: "",
  stderr: "",
  problem: null,
});
const ok = { exitCode: 0, spawnError: null, timedOut: false, stderr: "" };
const base = { maxSpawns: 16, cli: "claude-code 2.1.332", command: ["node", "run.mjs"] };

describe("orchestratedFaults", () => {
  it("finds none when every model request came through a spawn that ended", () => {
    const faults = orchestratedFaults({
      ...base,
      result: ok,
      requests: [model(1), model(2)],
      records: { spawns: [spawned(1), spawned(2)], refused: 0 },
    });
    expect(faults).toEqual([]);
  });

  it("names a request on the orchestrator's own route as a bypass, with its user-agent", () => {
    const faults = orchestratedFaults({
      ...base,
      result: ok,
      requests: [model(0, "claude-cli/2.1.332 (external, sdk-ts, agent-sdk/0.3.332)")],
      records: { spawns: [], refused: 0 },
    });
    expect(faults).toEqual([
      "no-spawn: the orchestrator ended (exit 0) without starting claude-code 2.1.332 through its shim",
      expect.stringMatching(/^bypass: 1 model request\(s\) .*agent-sdk\/0\.3\.332/),
    ]);
  });

  it("takes an allowed unshimmed binary's requests as a spawn: no bypass, no no-spawn", () => {
    const sdk = model(0, "claude-cli/2.1.332 (external, sdk-ts)");
    const faults = (unshimmed: { allowed: boolean; fault: string | null }) =>
      orchestratedFaults({
        ...base,
        result: ok,
        requests: [sdk],
        records: { spawns: [], refused: 0 },
        unshimmed,
      });
    expect(faults({ allowed: true, fault: null })).toEqual([]);
    expect(
      faults({ allowed: false, fault: "allowed x (sha256:a): the file's hash is sha256:b" }),
    ).toEqual([
      "no-spawn: the orchestrator ended (exit 0) without starting claude-code 2.1.332 through its shim",
      expect.stringMatching(
        /^bypass: 1 .*, and the launch's allowance does not hold: allowed x \(sha256:a\): the file's hash is sha256:b$/,
      ),
    ]);
  });

  it("counts a request with no route prefix as a bypass too", () => {
    const faults = orchestratedFaults({
      ...base,
      result: ok,
      requests: [model(1), model(undefined)],
      records: { spawns: [spawned(1)], refused: 0 },
    });
    expect(faults).toEqual([expect.stringMatching(/^bypass: 1 /)]);
  });

  it("names a command that could not be found, spawns past the bound and an unfinished spawn", () => {
    expect(
      orchestratedFaults({
        ...base,
        result: { ...ok, exitCode: 127, stderr: "sh: 1: nope: not found\n" },
        requests: [],
        records: { spawns: [], refused: 0 },
      }),
    ).toEqual(["orchestrator-not-found: node could not be run (exit 127): sh: 1: nope: not found"]);
    expect(
      orchestratedFaults({
        ...base,
        maxSpawns: 2,
        result: ok,
        requests: [model(1), model(2)],
        records: { spawns: [spawned(1), spawned(2, false)], refused: 3 },
      }),
    ).toEqual([
      "spawn-limit: the orchestrator tried more than 2 spawns (the launch's maxSpawns; at most 256); 3 refused",
      "spawn-unfinished: spawn 2 recorded no exit (killed before it ended)",
    ]);
  });
});

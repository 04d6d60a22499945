// Predicates over an orchestrator's spawns: the selector, `spawned` and `spawn-count`.
import { describe, expect, it } from "vitest";

import type { SpawnObservation } from "../probes/contracts/observation.js";
import { marker, observation } from "../test/support/observations.js";
import { evaluatePredicate } from "./evaluate.js";
import { predicateLabel, predicateSchema } from "./predicate.js";

const spawn = (n: number, overrides: Partial<SpawnObservation> = {}): SpawnObservation => ({
  spawn: n,
  cli: "claude-code",
  argv: ["--output-format", "stream-json", "--setting-sources=user"],
  env: { HOME: "/h", CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
  overridden: ["ANTHROPIC_BASE_URL"],
  cwd: "/ws",
  stdin: "",
  stdinBytes: 0,
  stdout: "",
  stdoutBytes: 0,
  exitCode: 0,
  signal: null,
  startMs: 1,
  durationMs: 2,
  requestCount: 1,
  markers: [marker("HOME_MD", [])],
  toolsOffered: ["Read"],
  toolCalls: [],
  permissionMode: null,
  transcriptFile: null,
  ...overrides,
});
const two = observation({
  markers: [marker("HOME_MD", ["messages"])],
  spawns: [spawn(1), spawn(2, { markers: [marker("HOME_MD", ["messages"])], exitCode: 1 })],
});
const run = (p: unknown, obs = two) => evaluatePredicate(predicateSchema.parse(p), obs);

describe("spawn selector", () => {
  it("reads the selected spawn's own markers and exit, any or all of them", () => {
    expect(run({ kind: "marker-present", marker: "HOME_MD" }).pass).toBe(true);
    expect(run({ kind: "marker-present", marker: "HOME_MD", spawn: 1 }).pass).toBe(false);
    expect(run({ kind: "marker-present", marker: "HOME_MD", spawn: 2 }).pass).toBe(true);
    expect(run({ kind: "marker-present", marker: "HOME_MD", spawn: "any" }).pass).toBe(true);
    expect(run({ kind: "marker-present", marker: "HOME_MD", spawn: "all" }).pass).toBe(false);
    expect(run({ kind: "exit-code", equals: 0, spawn: 1 }).pass).toBe(true);
    expect(run({ kind: "exit-code", equals: 0, spawn: "all" }).pass).toBe(false);
  });

  it("names a selector beyond the spawns seen, and one on a launch without spawns", () => {
    expect(run({ kind: "exit-code", equals: 0, spawn: 3 })).toEqual({
      pass: false,
      explanation: "spawn-selector: spawn 3 selected, but the orchestrator made 2 spawn(s)",
    });
    expect(run({ kind: "exit-code", equals: 0, spawn: 1 }, observation()).explanation).toMatch(
      /not an orchestrator's/,
    );
  });

  it("reads no-request on the selected spawn's own reason, never the launch's", () => {
    const reason = { exitCode: 1, meaning: null, stderr: "Not inside a trusted directory" };
    const stopped = observation({
      noRequestReason: { exitCode: 9, meaning: null, stderr: "the launch's own" },
      spawns: [spawn(1, { requestCount: 0, exitCode: 1, noRequestReason: reason }), spawn(2)],
    });
    const p = { kind: "no-request", matches: "trusted directory" };
    expect(run({ ...p, spawn: 1 }, stopped).pass).toBe(true);
    expect(run({ ...p, spawn: 2 }, stopped).pass).toBe(false);
    expect(run({ ...p, spawn: "all" }, stopped).pass).toBe(false);
    expect(run({ kind: "no-request", exitCode: 9, spawn: 2 }, stopped).pass).toBe(false);
    expect(predicateLabel(predicateSchema.parse({ ...p, exitCode: 1, spawn: 1 }))).toBe(
      "no-request exit 1 matches /trusted directory/ spawn 1",
    );
  });

  it("labels the selector", () => {
    expect(predicateLabel(predicateSchema.parse({ kind: "exit-code", equals: 0, spawn: 2 }))).toBe(
      "exit-code 0 spawn 2",
    );
  });
});

describe("spawned", () => {
  it("matches argv and env as data, own keys only, null for absent", () => {
    expect(run({ kind: "spawned", argvIncludes: ["--setting-sources=user"] }).pass).toBe(true);
    expect(
      run({ kind: "spawned", argvIncludes: [{ startsWith: "--setting-sources=p" }] }).pass,
    ).toBe(false);
    expect(
      run({ kind: "spawned", argv: [{ anything: true }, "stream-json", { matches: "^--setting" }] })
        .pass,
    ).toBe(true);
    expect(run({ kind: "spawned", argv: ["--output-format"] }).pass).toBe(false);
    expect(
      run({
        kind: "spawned",
        env: { CLAUDE_CODE_ENTRYPOINT: { contains: "sdk" }, ANTHROPIC_API_KEY: null },
      }).pass,
    ).toBe(true);
    expect(run({ kind: "spawned", env: { toString: null, HOME: "/h" } }).pass).toBe(true);
    expect(run({ kind: "spawned", env: { constructor: { anything: true } } }).pass).toBe(false);
  });

  it("matches the stdin the shim kept, and labels it", () => {
    const fed = observation({
      spawns: [
        spawn(1, { stdin: '{"type":"control_request","request":{"sdkMcpServers":["orch"]}}' }),
      ],
    });
    const p = { kind: "spawned", spawn: 1, stdin: { contains: '"sdkMcpServers":["orch"]' } };
    expect(run(p, fed).pass).toBe(true);
    expect(run(p).pass).toBe(false);
    expect(run({ ...p, stdin: "" }).pass).toBe(true);
    expect(predicateLabel(predicateSchema.parse(p))).toBe(
      'spawned spawn 1 stdin {"contains":"\\"sdkMcpServers\\":[\\"orch\\"]"}',
    );
  });

  it("refuses a spawned predicate with nothing to match", () => {
    expect(predicateSchema.safeParse({ kind: "spawned" }).success).toBe(false);
  });
});

describe("spawn-count", () => {
  it("counts the spawns through the shims", () => {
    expect(run({ kind: "spawn-count", equals: 2 }).pass).toBe(true);
    expect(run({ kind: "spawn-count", atLeast: 3 }).pass).toBe(false);
    expect(run({ kind: "spawn-count", atMost: 0 }, observation()).pass).toBe(true);
  });
});

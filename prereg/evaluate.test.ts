import { describe, expect, it } from "vitest";

import { marker, observation } from "../test/support/observations.js";
import { evaluatePredicate } from "./evaluate.js";
import { type Predicate, predicateLabel, predicateSchema } from "./predicate.js";

const obs = observation({
  exitCode: 3,
  permissionMode: "default",
  sandboxPolicy: "workspace-write",
  markers: [marker("WS", ["messages", "transcript"]), marker("HOME", [])],
  sentinels: [
    { name: "RAN", path: "/tmp/s/RAN", created: true },
    { name: "NOT", path: "/tmp/s/NOT", created: false },
  ],
  toolsOffered: ["Bash", "Read"],
  sideRequests: [{ method: "HEAD", path: "/api/hello", status: 200, count: 1 }],
  toolCalls: [
    {
      id: "1",
      name: "Bash",
      input: {},
      outcome: "ran",
      resultText: "",
      permissionDecision: "accept",
    },
    {
      id: "2",
      name: "Write",
      input: {},
      outcome: "denied",
      resultText: "",
      permissionDecision: "reject",
    },
    {
      id: "3",
      name: "Skill",
      input: {},
      outcome: "no-such-tool",
      resultText: "",
      permissionDecision: null,
    },
  ],
});

const table: [unknown, boolean][] = [
  [{ kind: "marker-present", marker: "WS" }, true],
  [{ kind: "marker-present", marker: "WS", in: "messages" }, true],
  [{ kind: "marker-present", marker: "WS", in: "system" }, false],
  [{ kind: "marker-present", marker: "HOME" }, false],
  [{ kind: "marker-absent", marker: "HOME" }, true],
  [{ kind: "marker-absent", marker: "WS" }, false],
  [{ kind: "marker-absent", marker: "WS", in: "system" }, true],
  [{ kind: "marker-absent", marker: "GONE" }, false],
  [{ kind: "marker-present", marker: "GONE" }, false],
  [{ kind: "sentinel-created", sentinel: "RAN" }, true],
  [{ kind: "sentinel-created", sentinel: "NOT" }, false],
  [{ kind: "sentinel-absent", sentinel: "NOT" }, true],
  [{ kind: "sentinel-absent", sentinel: "RAN" }, false],
  [{ kind: "sentinel-absent", sentinel: "MISSING" }, false],
  [{ kind: "tool-offered", tool: "Bash" }, true],
  [{ kind: "tool-offered", tool: "Write" }, false],
  [{ kind: "tool-not-offered", tool: "Write" }, true],
  [{ kind: "tool-not-offered", tool: "Read" }, false],
  [{ kind: "tool-call", tool: "Bash", outcome: "ran" }, true],
  [{ kind: "tool-call", tool: "Write", outcome: "denied" }, true],
  [{ kind: "tool-call", tool: "Write", outcome: "ran" }, false],
  [{ kind: "tool-call", tool: "Skill", outcome: "no-such-tool" }, true],
  [{ kind: "tool-call", tool: "Edit", outcome: "denied" }, false],
  [{ kind: "tool-call", tool: "Write", outcome: ["denied", "no-such-tool"] }, true],
  [{ kind: "tool-call", tool: "Skill", outcome: ["denied", "no-such-tool"] }, true],
  [{ kind: "tool-call", tool: "Bash", outcome: ["denied", "no-such-tool"] }, false],
  [{ kind: "tool-call", tool: "Bash", outcome: ["ran"] }, true],
  [{ kind: "tool-call", tool: "Write", outcome: ["ran", "error"] }, false],
  [{ kind: "tool-call", tool: "Edit", outcome: ["denied", "no-such-tool"] }, false],
  [{ kind: "exit-code", equals: 3 }, true],
  [{ kind: "exit-code", equals: 0 }, false],
  [{ kind: "permission-mode", equals: "default" }, true],
  [{ kind: "permission-mode", equals: "bypassPermissions" }, false],
  [{ kind: "sandbox-policy", equals: "workspace-write" }, true],
  [{ kind: "sandbox-policy", equals: "read-only" }, false],
  [{ kind: "side-request-seen" }, true],
  [{ kind: "side-request-seen", method: "HEAD", path: "/api/hello" }, true],
  [{ kind: "side-request-seen", path: "/" }, false],
  [{ kind: "side-request-seen", method: "GET" }, false],
  [{ kind: "side-request-absent", path: "/" }, true],
  [{ kind: "side-request-absent" }, false],
  [{ kind: "side-request-absent", method: "HEAD", path: "/api/hello" }, false],
];

// Claude Code as root, without IS_SANDBOX=1: its refusal, as the driver reads it from stderr.
const refused = observation({
  exitCode: 1,
  rejectedArgv: {
    flag: "--dangerously-skip-permissions",
    message:
      "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
  },
});
const refusals: [unknown, boolean][] = [
  [{ kind: "argv-rejected", matches: "root/sudo" }, true],
  [{ kind: "argv-rejected", flag: "--dangerously-skip-permissions", matches: "^--danger" }, true],
  [{ kind: "argv-rejected", flag: "--permission-mode", matches: "root/sudo" }, false],
  [{ kind: "argv-rejected", matches: "unknown option" }, false],
];

describe("evaluatePredicate", () => {
  it.each(table)("judges %j as %s from the observation alone", (input, pass) => {
    const predicate: Predicate = predicateSchema.parse(input);
    const result = evaluatePredicate(predicate, obs);
    expect(result.pass).toBe(pass);
    expect(result.explanation).not.toContain("\n");
    expect(result.explanation.length).toBeGreaterThan(10);
  });

  it.each(refusals)("judges %j on a refused argv as %s", (input, pass) => {
    const result = evaluatePredicate(predicateSchema.parse(input), refused);
    expect(result.pass).toBe(pass);
    expect(result.explanation).toContain("root/sudo privileges");
  });

  it("fails argv-rejected when the CLI took the argv, saying so", () => {
    const predicate = predicateSchema.parse({ kind: "argv-rejected", matches: "." });
    expect(evaluatePredicate(predicate, obs)).toEqual({
      pass: false,
      explanation:
        "the argv was not refused (exit code 3, 1 request(s)); expected a flag refused with a message matching /./",
    });
  });

  it("judges no-request on the reason a CLI gave for asking nothing, and fails it when the CLI asked", () => {
    const stopped = observation({
      exitCode: 1,
      requestCount: 0,
      noRequestReason: {
        exitCode: 1,
        meaning: null,
        stderr: "Not inside a trusted directory and --skip-git-repo-check was not specified.",
      },
    });
    const judge = (p: unknown, o = stopped) => evaluatePredicate(predicateSchema.parse(p), o);
    expect(judge({ kind: "no-request" }).pass).toBe(true);
    expect(judge({ kind: "no-request", exitCode: 1, matches: "skip-git-repo-check" }).pass).toBe(
      true,
    );
    expect(judge({ kind: "no-request", exitCode: 2 }).pass).toBe(false);
    expect(judge({ kind: "no-request", matches: "^Error" }).explanation).toBe(
      'stopped before any model request: exit 1; stderr: "Not inside a trusted directory and --skip-git-repo-check was not specified."; expected a stop before any model request and stderr matching /^Error/',
    );
    expect(judge({ kind: "no-request" }, obs)).toEqual({
      pass: false,
      explanation: "1 request(s) reached the fake; expected a stop before any model request",
    });
    expect(judge({ kind: "no-request" }, refused).explanation).toMatch(/argv was refused/);
    expect(predicateSchema.safeParse({ kind: "no-request", matches: "(" }).success).toBe(false);
  });

  it("says where a marker was seen", () => {
    const result = evaluatePredicate({ kind: "marker-absent", marker: "WS" }, obs);
    expect(result.explanation).toBe("marker WS seen in messages, transcript; expected absent");
  });

  it("fails an absence check on a marker the cell never planted, rather than passing it", () => {
    const result = evaluatePredicate({ kind: "marker-absent", marker: "GONE" }, obs);
    expect(result.explanation).toContain("not in the observation");
  });

  it("says that an unrecorded permission mode was not recorded", () => {
    const result = evaluatePredicate({ kind: "permission-mode", equals: "plan" }, observation());
    expect(result).toEqual({
      pass: false,
      explanation: "permission mode was not recorded; expected plan",
    });
  });

  it("says which outcomes a set accepted, and that a single outcome reads as before", () => {
    const set = predicateSchema.parse({
      kind: "tool-call",
      tool: "Write",
      outcome: ["denied", "no-such-tool"],
    });
    expect(evaluatePredicate(set, obs).explanation).toBe(
      "Write calls ended denied; expected one of denied, no-such-tool",
    );
    const single = predicateSchema.parse({ kind: "tool-call", tool: "Write", outcome: "ran" });
    expect(evaluatePredicate(single, obs).explanation).toBe(
      "Write calls ended denied; expected ran",
    );
    expect([predicateLabel(set), predicateLabel(single)]).toEqual([
      "tool-call Write denied or no-such-tool",
      "tool-call Write ran",
    ]);
  });

  it("passes a set only when every call's outcome is in it, whichever member each call hit", () => {
    const call = (id: string, outcome: "denied" | "no-such-tool" | "ran") => ({
      id,
      name: "Bash",
      input: {},
      outcome,
      resultText: "",
      permissionDecision: null,
    });
    const mixed = observation({ toolCalls: [call("1", "denied"), call("2", "no-such-tool")] });
    const leaked = observation({ toolCalls: [call("1", "denied"), call("2", "ran")] });
    const p = predicateSchema.parse({
      kind: "tool-call",
      tool: "Bash",
      outcome: ["denied", "no-such-tool"],
    });
    expect(evaluatePredicate(p, mixed).pass).toBe(true);
    expect(evaluatePredicate(p, leaked)).toEqual({
      pass: false,
      explanation: "Bash calls ended denied, ran; expected one of denied, no-such-tool",
    });
    const single = predicateSchema.parse({ kind: "tool-call", tool: "Bash", outcome: "denied" });
    expect(evaluatePredicate(single, mixed).pass).toBe(false);
  });

  it("parses a single outcome to the bare string, so locked protocols keep their hash", () => {
    expect(predicateSchema.parse({ kind: "tool-call", tool: "Bash", outcome: "ran" })).toEqual({
      kind: "tool-call",
      tool: "Bash",
      outcome: "ran",
    });
  });

  it("rejects an empty outcome list and an unknown outcome, saying what was expected", () => {
    const empty = predicateSchema.safeParse({ kind: "tool-call", tool: "Bash", outcome: [] });
    expect(empty.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["outcome"], "expected at least one outcome"],
    ]);
    const unknown = predicateSchema.safeParse({
      kind: "tool-call",
      tool: "Bash",
      outcome: "maybe",
    });
    expect(unknown.error?.issues[0]?.message).toBe(
      "expected one of ran, denied, no-such-tool, error, or a non-empty list of them",
    );
  });

  it("counts model calls of one kind, and fails an observation with no account of them", () => {
    const obs = observation({
      modelCalls: [
        { kind: "main", count: 2, answers: ["turn:0", "final"] },
        { kind: "unclassified", count: 1, answers: ["turn:0"] },
      ],
    });
    const none = predicateSchema.parse({ kind: "model-calls", of: "unclassified", equals: 0 });
    expect(evaluatePredicate(none, obs)).toEqual({
      pass: false,
      explanation: "1 unclassified call(s) (model calls: main ×2, unclassified ×1)",
    });
    const main = predicateSchema.parse({ kind: "model-calls", of: "main", atLeast: 2 });
    expect(evaluatePredicate(main, obs).pass).toBe(true);
    expect(evaluatePredicate(none, observation()).pass).toBe(false);
    expect(predicateLabel(main)).toBe("model-calls main >= 2");
    expect(predicateSchema.safeParse({ kind: "model-calls", of: "title" }).success).toBe(false);
    expect(predicateSchema.safeParse({ kind: "model-calls", of: "main" }).success).toBe(false);
  });

  it("judges side traffic on a spawn that had none, and labels the check", () => {
    const quiet = observation();
    const absent = predicateSchema.parse({ kind: "side-request-absent" });
    expect(evaluatePredicate(absent, quiet)).toEqual({
      pass: true,
      explanation: "0 side request seen (side requests: none)",
    });
    const seen = predicateSchema.parse({ kind: "side-request-seen", method: "HEAD", path: "/" });
    expect(predicateLabel(seen)).toBe("side-request-seen HEAD /");
    expect(predicateSchema.safeParse({ kind: "side-request-seen", path: "api" }).success).toBe(
      false,
    );
  });
});

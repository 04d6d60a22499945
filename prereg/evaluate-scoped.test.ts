// The predicates that read per-request sightings, call numbers and sentinel contents.
import { describe, expect, it } from "vitest";

import type { Observation } from "../probes/contracts/observation.js";
import { observation } from "../test/support/observations.js";
import { evaluatePredicate } from "./evaluate.js";
import { predicateLabel, predicateSchema } from "./predicate.js";

const LABEL = "Contents of /p/CLAUDE.md (project instructions, checked into the codebase):\\n\\n";

const markers: Observation["markers"] = [
  {
    name: "REPO",
    value: "WITNESS-REPO-abc",
    planted: ["p/CLAUDE.md"],
    seenIn: ["messages"],
    sightings: [
      {
        request: 0,
        location: "messages",
        role: "user",
        count: 2,
        contexts: [
          { before: LABEL, after: "\\n" },
          { before: "unrelated text", after: "" },
        ],
      },
      { request: 1, location: "messages", role: "user", count: 2, contexts: [] },
      { request: 0, location: "messages", role: "system", count: 1, contexts: [] },
    ],
  },
  // An older record: a marker without sightings.
  { name: "OLD", value: "WITNESS-OLD-abc", planted: ["x"], seenIn: ["messages"] },
];

const call = (n: number, name: string, outcome: "ran" | "denied") => ({
  id: `c${n}`,
  name,
  input: {},
  outcome,
  resultText: "",
  permissionDecision: null,
  call: n,
});

const obs = observation({
  markers,
  toolsOffered: ["Bash", "Skill", "Read"],
  toolCalls: [call(1, "Bash", "ran"), call(2, "Bash", "denied")],
  sentinels: [
    { name: "VERDICT", path: "/s/VERDICT", created: true, content: '{"mode":"sandboxed"}\n' },
    { name: "EMPTY", path: "/s/EMPTY", created: false, content: null },
  ],
});

const table: [unknown, boolean][] = [
  [{ kind: "marker-count", marker: "REPO", count: 3 }, true],
  [{ kind: "marker-count", marker: "REPO", count: 2 }, false],
  [{ kind: "marker-count", marker: "REPO", count: 2, role: "user" }, true],
  [{ kind: "marker-count", marker: "REPO", count: 1, in: "messages", role: "system" }, true],
  [{ kind: "marker-count", marker: "REPO", atLeast: 4 }, false],
  [{ kind: "marker-count", marker: "REPO", atLeast: 2, request: 1 }, true],
  [{ kind: "marker-count", marker: "REPO", count: 0, request: 2 }, true],
  [{ kind: "marker-count", marker: "REPO", count: 0, in: "system" }, true],
  [
    { kind: "marker-count", marker: "REPO", count: 1, near: { text: "project instructions" } },
    true,
  ],
  [
    { kind: "marker-count", marker: "REPO", count: 1, near: { text: "Contents of", within: 20 } },
    false,
  ],
  [{ kind: "marker-count", marker: "OLD", count: 1 }, false],
  [{ kind: "marker-present", marker: "REPO", role: "system" }, true],
  [{ kind: "marker-present", marker: "REPO", role: "developer" }, false],
  [{ kind: "marker-absent", marker: "REPO", role: "developer" }, true],
  [{ kind: "marker-absent", marker: "REPO", request: 0, role: "system" }, false],
  [{ kind: "marker-present", marker: "OLD", role: "user" }, false],
  [{ kind: "marker-present", marker: "OLD", in: "messages" }, true],
  [{ kind: "tool-call", call: 1, outcome: "ran" }, true],
  [{ kind: "tool-call", call: 2, outcome: "denied" }, true],
  [{ kind: "tool-call", call: 2, tool: "Bash", outcome: "ran" }, false],
  [{ kind: "tool-call", call: 1, tool: "Write", outcome: "ran" }, false],
  [{ kind: "tool-call", call: 3, outcome: "ran" }, false],
  [{ kind: "tool-call", tool: "Bash", outcome: "ran" }, false],
  [{ kind: "tools-offered-exactly", tools: ["Read", "Skill", "Bash"] }, true],
  [{ kind: "tools-offered-exactly", tools: ["Bash", "Skill"] }, false],
  [{ kind: "tools-offered-exactly", tools: ["Bash", "Skill", "Read", "Write"] }, false],
  [{ kind: "sentinel-content", sentinel: "VERDICT", matches: '"mode":"sandboxed"' }, true],
  [{ kind: "sentinel-content", sentinel: "VERDICT", matches: "full-access" }, false],
  [{ kind: "sentinel-content", sentinel: "VERDICT", equals: '{"mode":"sandboxed"}\n' }, true],
  [{ kind: "sentinel-content", sentinel: "VERDICT", equals: '{"mode":"sandboxed"}' }, false],
  [{ kind: "sentinel-content", sentinel: "EMPTY", matches: ".*" }, false],
  [{ kind: "sentinel-content", sentinel: "GONE", matches: ".*" }, false],
];

describe("scoped and counted predicates", () => {
  it.each(table)("judges %j as %s from the observation alone", (input, pass) => {
    const result = evaluatePredicate(predicateSchema.parse(input), obs);
    expect(result.pass).toBe(pass);
    expect(result.explanation).not.toContain("\n");
  });

  it("counts the first agent request unless told otherwise, and says so", () => {
    const p = predicateSchema.parse({ kind: "marker-count", marker: "REPO", count: 3 });
    expect(p).toMatchObject({ request: 0 });
    expect(predicateLabel(p)).toBe("marker-count REPO 3 request 0");
    expect(evaluatePredicate(p, obs).explanation).toBe(
      "marker REPO occurs 3 times in request 0; expected 3",
    );
  });

  it("labels each new kind in one line", () => {
    const labels = [
      { kind: "marker-count", marker: "A", atLeast: 2, in: "messages", role: "system" },
      { kind: "marker-present", marker: "A", near: { text: "project instructions" } },
      { kind: "tool-call", call: 2, tool: "Bash", outcome: ["denied", "no-such-tool"] },
      { kind: "tools-offered-exactly", tools: ["Bash"] },
      { kind: "sentinel-content", sentinel: "S", matches: "^ok" },
    ].map((p) => predicateLabel(predicateSchema.parse(p)));
    expect(labels).toEqual([
      "marker-count A at least 2 in messages role system request 0",
      'marker-present A near "project instructions" within 200',
      "tool-call call 2 Bash denied or no-such-tool",
      "tools-offered-exactly [Bash]",
      "sentinel-content S matches /^ok/",
    ]);
  });

  it("keeps the labels of the predicates locked protocols use", () => {
    const old = [
      { kind: "marker-absent", marker: "HOME_MD", in: "system" },
      { kind: "tool-call", tool: "Bash", outcome: "ran" },
    ].map((p) => predicateLabel(predicateSchema.parse(p)));
    expect(old).toEqual(["marker-absent HOME_MD in system", "tool-call Bash ran"]);
  });

  it.each([
    [{ kind: "marker-count", marker: "A" }, "count", "expected exactly one of count or atLeast"],
    [{ kind: "marker-count", marker: "A", count: 1, atLeast: 1 }, "count", "expected exactly one"],
    [
      { kind: "marker-count", marker: "A", count: 1, in: "transcript" },
      "in",
      "counts are per request",
    ],
    [
      { kind: "marker-present", marker: "A", in: "transcript", role: "user" },
      "role",
      "in: transcript",
    ],
    [
      { kind: "marker-present", marker: "A", near: { text: "x", within: 9999 } },
      "near.within",
      "at most 400",
    ],
    [{ kind: "tool-call", outcome: "ran" }, "tool", "expected a tool, a call, or both"],
    [{ kind: "tool-call", call: 0, outcome: "ran" }, "call", "expected a 1-based call number"],
    [{ kind: "sentinel-content", sentinel: "S" }, "equals", "exactly one of equals or matches"],
    [
      { kind: "sentinel-content", sentinel: "S", matches: "(" },
      "matches",
      "valid regular expression",
    ],
  ])("refuses %j at %s", (input, path, message) => {
    const result = predicateSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((i) => [i.path.join("."), i.message]) ?? [];
    expect(issues.some(([p, m]) => p === path && m?.includes(message))).toBe(true);
  });
});

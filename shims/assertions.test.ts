import { describe, expect, it } from "vitest";

import { type AsymmetricMatcher, checkSpawned, sideBySide, unmetPlans } from "./assertions.js";
import type { ShimRecord } from "./log-schema.js";

const rec = (over: Partial<ShimRecord>): ShimRecord => ({
  v: 1,
  shim: "claude",
  argv: [],
  cwd: "/w",
  env: {},
  start: 1767225600000,
  pid: 10,
  ppid: 1,
  mode: "script",
  stdin: null,
  exitCode: 0,
  ...over,
});

describe("sideBySide", () => {
  it("puts expected and actual argv in two columns and marks each difference", () => {
    const lines = sideBySide(["-p", "hello world", "--x"], ["-p", "hello"]).split("\n");
    expect(lines[0]).toMatch(/expected\s+actual/);
    expect(lines[1]).toMatch(/^\s+0 "-p"\s+"-p"$/);
    expect(lines[2]).toMatch(/^\s+1 "hello world"\s+≠ "hello"$/);
    expect(lines[3]).toMatch(/^\s+2 "--x"\s+≠ \(none\)$/);
  });

  it("shortens huge arguments but says how long they were", () => {
    expect(sideBySide(["x".repeat(5000)], [])).toContain("(5000 chars)");
  });
});

describe("checkSpawned", () => {
  const records = [
    rec({ argv: ["-p", "hi"], env: { OPENAI_API_KEY: "<redacted:3>" } }),
    rec({ shim: "codex", argv: ["exec"] }),
  ];

  it("passes when a call matches argv, cwd and env", () => {
    expect(
      checkSpawned(records, "claude", { argv: ["-p", "hi"], cwd: "/w", env: { HOME: null } }).pass,
    ).toBe(true);
    expect(checkSpawned(records, "codex", { times: 1 }).pass).toBe(true);
  });

  it("fails with the argv side by side when no call matches", () => {
    const check = checkSpawned(records, "claude", { argv: ["-p", "bye"] });
    expect(check.pass).toBe(false);
    expect(check.message).toContain("claude was called 1 time(s), 0 matched");
    expect(check.message).toMatch(/1 "bye"\s+≠ "hi"/);
  });

  it("fails when a variable that must be absent reached the child", () => {
    const check = checkSpawned(records, "claude", { env: { OPENAI_API_KEY: null } });
    expect(check.pass).toBe(false);
    expect(check.message).toContain('env OPENAI_API_KEY: expected absent, actual "<redacted:3>"');
  });

  it("reads only the variables the record holds, never Object.prototype's", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const anything = { asymmetricMatch: (v: unknown) => v !== undefined, toString: () => "set" };
      expect(checkSpawned(records, "claude", { env: { [name]: anything } }).pass, name).toBe(false);
      expect(checkSpawned(records, "claude", { env: { [name]: null } }).pass, name).toBe(true);
    }
  });

  it("passes a vitest matcher on a variable only when the record holds it", () => {
    const anything: unknown = expect.anything();
    const env = { constructor: anything as AsymmetricMatcher };
    expect(checkSpawned(records, "claude", { env }).pass).toBe(false);
  });

  it("names the shims that were called when the expected one never was", () => {
    const check = checkSpawned(records, "gemini", {});
    expect(check.message).toMatch(/gemini was never called \(shims called: claude, codex\)/);
  });

  it("counts matches when times is given", () => {
    expect(checkSpawned([...records, records[0] as ShimRecord], "claude", { times: 1 }).pass).toBe(
      false,
    );
  });
});

describe("unmetPlans", () => {
  it("names the planned calls that never arrived, including plans never called at all", () => {
    const records = [rec({ mode: "plan", call: 1, planLength: 3 })];
    expect(unmetPlans(records, { claude: 3, codex: 1 })).toEqual([
      "claude: plan of 3 call(s), call(s) 2, 3 never arrived",
      "codex: plan of 1 call(s), call(s) 1 never arrived",
    ]);
  });

  it("is empty when every planned call arrived", () => {
    const records = [1, 2].map((call) => rec({ mode: "plan", call, planLength: 2 }));
    expect(unmetPlans(records)).toEqual([]);
  });
});

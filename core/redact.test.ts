import { describe, expect, it } from "vitest";

import { REDACTION_CASES } from "../test/support/redaction-cases.js";
import { isSecretFlag, redactArgv, redactEnv, redactStrings, redactText } from "./redact.js";

describe("the redaction rule, on the shared table", () => {
  it.each(REDACTION_CASES.map((c) => [c.case, c] as const))("%s", (_, c) => {
    if ("env" in c) expect(redactEnv(c.env)).toEqual(c.expected);
    else expect(redactArgv(c.argv)).toEqual(c.expected);
  });

  it("changes nothing on a second pass", () => {
    for (const c of REDACTION_CASES) {
      if ("env" in c) expect(redactEnv(c.expected)).toEqual(c.expected);
      else expect(redactArgv(c.expected)).toEqual(c.expected);
    }
  });
});

describe("redaction by value", () => {
  it("redacts overlapping finds once, with the secret's true length", () => {
    // The header rule and the bearer rule both find this token.
    expect(redactText("Authorization: Bearer abcdefgh12345678")).toBe(
      "Authorization: Bearer <redacted:16>",
    );
    const key = `sk-${"a".repeat(30)}`;
    expect(redactText(`API_KEY=${key}`)).toBe(`API_KEY=<redacted:${key.length}>`);
  });

  it("gives an escaped JSON secret its decoded length", () => {
    expect(redactText('{"token":"a\\"b"}')).toBe('{"token":"<redacted:3>"}');
  });

  it("leaves text that is not JSON alone under the JSON rule", () => {
    expect(redactText('{"token": "x"')).toBe('{"token": "x"');
  });

  it("reaches every string of a nested value", () => {
    const key = `ghp_${"b".repeat(36)}`;
    expect(redactStrings({ a: [`x ${key}`], n: 1, nested: { s: "plain" } })).toEqual({
      a: [`x <redacted:${key.length}>`],
      n: 1,
      nested: { s: "plain" },
    });
  });

  it.each([
    ["--api-key", true],
    ["--auth-token", true],
    ["-password", true],
    ["--keep", false],
    ["--disable-keychain", false],
    ["--max-tokens", false],
    ["api-key", false],
  ])("%s takes a secret value: %s", (flag, secret) => {
    expect(isSecretFlag(flag)).toBe(secret);
  });
});

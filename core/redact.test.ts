import { describe, expect, it } from "vitest";

import { REDACTION_CASES } from "../test/support/redaction-cases.js";
import {
  forgetHeldSecrets,
  isSecretFlag,
  redactArgv,
  redactEnv,
  redactStrings,
  redactText,
} from "./redact.js";

describe("the redaction rule, on the shared table", () => {
  it.each(REDACTION_CASES.map((c) => [c.case, c] as const))("%s", (_, c) => {
    if ("env" in c) expect(redactEnv(c.env)).toEqual(c.expected);
    else expect(redactArgv(c.argv, c.holding)).toEqual(c.expected);
  });

  it("changes nothing on a second pass", () => {
    for (const c of REDACTION_CASES) {
      if ("env" in c) expect(redactEnv(c.expected)).toEqual(c.expected);
      else expect(redactArgv(c.expected)).toEqual(c.expected);
    }
  });
});

describe("redaction by the maintained pattern set (secretlint's recommended preset)", () => {
  it.each([
    ["Hugging Face", `hf_${"aBcDeFgHiJkLmNoPqRsTuVwXyZabcdefgh"}`],
    ["SendGrid", `SG.${"a".repeat(22)}.${"b".repeat(43)}`],
    ["Linear", `lin_api_${"a1b2c3d4e5f6g7h8i9j0".repeat(2)}`],
  ])("catches a token the table does not hold: %s", (_, token) => {
    expect(redactText(`x ${token} y`)).toBe(`x <redacted:${token.length}> y`);
  });

  it("is not switched off by a secretlint-disable comment in the text", () => {
    const token = `npm_${"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}`;
    expect(redactText(`// secretlint-disable\n${token}`)).toBe(
      `// secretlint-disable\n<redacted:${token.length}>`,
    );
  });
});

describe("redaction of the secrets this process holds", () => {
  it("redacts the value of a secret-named variable of witness's own environment wherever it appears", () => {
    process.env.WITNESS_TEST_API_TOKEN = "held-by-witness-1234";
    forgetHeldSecrets();
    try {
      expect(redactText("curl -H 'X: held-by-witness-1234'")).toBe("curl -H 'X: <redacted:20>'");
      expect(redactArgv(["--note", "held-by-witness-1234"])).toEqual(["--note", "<redacted:20>"]);
      expect(redactStrings({ body: ["held-by-witness-1234"] })).toEqual({
        body: ["<redacted:20>"],
      });
    } finally {
      delete process.env.WITNESS_TEST_API_TOKEN;
      forgetHeldSecrets();
    }
    expect(redactText("held-by-witness-1234")).toBe("held-by-witness-1234");
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

import { describe, expect, it } from "vitest";

import { buildChildEnv, isSecretName, redactEnv } from "./child-env.js";

describe("buildChildEnv", () => {
  const parent = {
    PATH: "/usr/bin",
    HOME: "/root",
    LC_ALL: "C.UTF-8",
    ANTHROPIC_API_KEY: "sk-ant-real",
    ANTHROPIC_AUTH_TOKEN: "tok",
    OPENAI_API_KEY: "sk-real",
    CODEX_API_KEY: "cx",
    GITHUB_TOKEN: "ghp",
    RANDOM_VAR: "x",
  };

  it("keeps allow-listed names and drops everything else", () => {
    expect(buildChildEnv({ parent })).toEqual({ PATH: "/usr/bin", LC_ALL: "C.UTF-8" });
  });

  it("never passes a parent secret, even when the caller allows its name", () => {
    const env = buildChildEnv({
      parent,
      allow: ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "RANDOM_VAR"],
    });
    expect(env).toEqual({ PATH: "/usr/bin", LC_ALL: "C.UTF-8", RANDOM_VAR: "x" });
  });

  it("sets the caller's explicit values last", () => {
    expect(buildChildEnv({ parent, set: { HOME: "/tmp/cell/home" } }).HOME).toBe("/tmp/cell/home");
  });
});

describe("secrets", () => {
  it.each([
    ["ANTHROPIC_API_KEY", true],
    ["ANTHROPIC_AUTH_TOKEN", true],
    ["OPENAI_API_KEY", true],
    ["CODEX_API_KEY", true],
    ["NPM_TOKEN", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["DB_PASSWORD", true],
    ["ANTHROPIC_BASE_URL", false],
    ["HOME", false],
  ])("%s is secret: %s", (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  it("redacts values keeping their length", () => {
    expect(redactEnv({ OPENAI_API_KEY: "abcd", HOME: "/h" })).toEqual({
      OPENAI_API_KEY: "<redacted:4>",
      HOME: "/h",
    });
  });
});

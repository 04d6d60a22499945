import { describe, expect, it } from "vitest";

import { spawnEnv, spawnPath } from "./spawn-env.js";

// A PATH as an operator's shell has it: tool managers and personal directories around the system's.
const PARENT =
  "/home/op/.cargo/bin:/home/op/.nvm/versions/node/v20/bin:/usr/local/bin:/usr/bin:/bin:/home/op/bin:relative/dir";
const HAS = new Set([
  "/home/op/.nvm/versions/node/v20/bin/node",
  "/usr/bin/git",
  "/bin/sh",
  "/usr/bin/bash",
  "/usr/bin/env",
]);
const exists = (path: string) => HAS.has(path);

describe("a spawn's PATH", () => {
  it("keeps the system directories and the one holding node, in the parent's order, and drops the rest", () => {
    expect(spawnPath(PARENT, { exists })).toBe(
      "/home/op/.nvm/versions/node/v20/bin:/usr/local/bin:/usr/bin:/bin",
    );
  });

  it("adds the running Node's directory when no node is on PATH", () => {
    expect(
      spawnPath("/usr/bin:/opt/tools", { exists: () => false, nodeDir: "/opt/node/bin" }),
    ).toBe("/usr/bin:/opt/node/bin");
  });

  it("is what the environment carries, under the cell's, the driver's and the arm's variables", () => {
    const env = spawnEnv(
      {
        cell: { HOME: "/cell/home" },
        launched: { ANTHROPIC_BASE_URL: "http://127.0.0.1:1", IS_SANDBOX: "1" },
        launch: { unset: ["IS_SANDBOX"] },
      },
      { PATH: "/home/op/.cargo/bin:/usr/bin", HOME: "/home/op", ANTHROPIC_API_KEY: "sk-real" },
    );
    expect(env.PATH?.split(":")).not.toContain("/home/op/.cargo/bin");
    expect(env).toMatchObject({ HOME: "/cell/home", ANTHROPIC_BASE_URL: "http://127.0.0.1:1" });
    expect(env).not.toHaveProperty("IS_SANDBOX");
    expect(env).not.toHaveProperty("ANTHROPIC_API_KEY");
  });
});

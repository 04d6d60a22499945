// Help through the built binary: a command's help on stdout (exit 0), a bare group's on stderr
// (exit 2). help.test.ts checks every command's help in process.
import { describe, expect, it } from "vitest";

import { runBuiltCli, WITNESS_ROOT } from "../test/support/built-cli.js";

const witness = (...args: string[]) =>
  runBuiltCli(args, { cwd: WITNESS_ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });

describe("witness --help (built CLI)", () => {
  it("prints a command's options on stdout and exits 0", async () => {
    const result = await witness("run", "--help");
    expect([result.exitCode, result.stderr]).toEqual([0, ""]);
    expect(result.stdout).toContain("--dry-run");
  });

  it("prints a bare group's subcommands on stderr and exits 2", async () => {
    const result = await witness("vendors");
    expect([result.exitCode, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toContain("witness vendors add");
  });
});

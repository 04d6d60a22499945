// The fast tier runs commands in process (support/in-process-cli.ts) on the premise that they
// print and exit there as the built binary does: checked on a success, a parse failure, a bare
// group, help text, a usage error and a bad input file.
import { describe, expect, it } from "vitest";

import { runBuiltCli, WITNESS_ROOT } from "./support/built-cli.js";
import { runCliInProcess } from "./support/in-process-cli.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent", NO_COLOR: "1" };

describe("witness in process and as the built binary", () => {
  it.each([
    [["argv", "--node", "orchestrator/examples/planned-codex.yaml", "--json"]],
    [["diff", "--jsno", "a.json", "b.json"]],
    [["vendors"]],
    [["prereg", "verify", "--help"]],
    [["run", "--all", "--jobs", "0"]],
    [["prereg", "verify", "prereg/test/fixtures/bad/0001-unknown-field.yaml"]],
  ])("%j: the same exit code, stdout and stderr", async (args) => {
    const binary = await runBuiltCli(args, { cwd: WITNESS_ROOT, env });
    const here = await runCliInProcess({ cwd: WITNESS_ROOT, args, env });
    expect(here).toEqual({
      exitCode: binary.exitCode,
      stdout: binary.stdout,
      stderr: binary.stderr,
    });
  });
});

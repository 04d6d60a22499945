// Every option says what it is for; a bare command group shows its own subcommands.
import { describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "../test/support/built-cli.js";
import { runCliInProcess } from "../test/support/in-process-cli.js";

const GROUPS: Record<string, string[]> = {
  adr: ["check", "status", "promote"],
  prereg: ["new", "lock", "verify"],
  vendors: ["add", "list", "path"],
  shim: ["install", "log", "assert"],
  orchestrate: ["run", "resume"],
};
const COMMANDS = ["run", "merge", "diff", "drift", "report", "bisect", "probe", "argv", "plan"];

// In process: the help texts are yargs' rendering of the declarations (help.e2e.test.ts runs a
// sample through the built binary).
const witness = (...args: string[]) =>
  runCliInProcess({ args, cwd: WITNESS_ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });

// An option line: two spaces, the flag, then a description before the [type] column.
function undescribed(help: string): string[] {
  return help
    .split("\n")
    .filter((l) => /^\s{2}(--[a-z-]+|[a-z]+)\s/.test(l))
    .filter((l) => /^\s*\S+\s+\[/.test(l) || /^\s*\S+\s*$/.test(l));
}

describe("witness --help", () => {
  it.each([
    ...COMMANDS.map((c) => [c]),
    ...Object.entries(GROUPS).flatMap(([g, subs]) => subs.map((s) => [g, s])),
  ])("%s %s: every option has help text and no [default: []]", async (...command) => {
    const result = await witness(...command.filter((c) => c !== undefined), "--help");
    expect(result.exitCode).toBe(0);
    expect(undescribed(result.stdout)).toEqual([]);
    expect(result.stdout).not.toContain("[default: []]");
  });

  it.each(Object.entries(GROUPS))(
    "a bare `witness %s` prints its own subcommands, exit 2",
    async (group, subs) => {
      const result = await witness(group);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe("");
      for (const sub of subs) expect(result.stderr).toContain(`witness ${group} ${sub}`);
      expect(result.stderr).not.toContain("Not enough non-option arguments");
    },
  );

  it("names a mistyped flag before a positional, not the positional count", async () => {
    const result = await witness("diff", "--jsno", "a.json", "b.json");
    expect([result.exitCode, result.stderr.split("\n")[0]]).toEqual([
      2,
      "witness: unknown option --jsno (did you mean --json?)",
    ]);
  });
});

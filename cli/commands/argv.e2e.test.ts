// `witness argv` through the built binary: the JSON document on stdout, and a refusal as a person
// sees it. argv.test.ts runs every example in process.
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { runBuiltCli, WITNESS_ROOT } from "../../test/support/built-cli.js";
import { tempWorkspace } from "../../test/support/temp-workspace.js";

const example = (name: string) => join(WITNESS_ROOT, "orchestrator", "examples", name);

function witness(args: string[], repo: { root: string; home: string }) {
  return runBuiltCli(args, {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: repo.home },
    cwd: repo.root,
  });
}

describe("witness argv (built CLI)", () => {
  it("prints one JSON document with the argv, and nothing on stderr", async () => {
    const repo = tempWorkspace();
    const r = await witness(["argv", "--node", example("planned-claude.yaml"), "--json"], repo);
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    expect((JSON.parse(r.stdout) as { args: string[] }).args.slice(0, 3)).toEqual([
      "-p",
      "--model",
      "claude-opus-4-5",
    ]);
  });

  it("refuses a node with exit 2, its reason code and no stack", async () => {
    const repo = tempWorkspace();
    const r = await witness(["argv", "--node", example("full-access-read-only.yaml")], repo);
    expect([r.exitCode, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/^witness: refused \(full-access-with-filesystem\): [^\n]+\n$/);
  });
});

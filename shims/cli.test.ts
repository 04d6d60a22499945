import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runCliInProcess } from "../test/support/in-process-cli.js";
import { run, tempDir } from "../test/support/temp-dir.js";

// `witness shim` in process (cli/commands/json.e2e.test.ts runs it through the built binary).
const witness = (args: string[], cwd?: string) =>
  runCliInProcess({
    args,
    cwd: cwd ?? tmpdir(),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });

describe("witness shim", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it("installs shims that record calls, and prints the log as text and JSON", async () => {
    const installed = await witness([
      "shim",
      "install",
      "--dir",
      join(dir, "bin"),
      "--exit",
      "4",
      "--stdout",
      "done",
      "claude",
      "codex",
    ]);
    expect(installed.exitCode).toBe(0);
    expect(installed.stdout).toContain(`claude\t${join(dir, "bin", "claude")}`);
    const empty = await witness(["shim", "log", join(dir, "bin", "shims.jsonl")]);
    expect([empty.exitCode, empty.stdout]).toEqual([0, "(no calls recorded)\n"]);
    const call = await run(join(dir, "bin", "codex"), ["exec", "a b"]);
    expect([call.exitCode, call.stdout]).toEqual([4, "done"]);

    const text = await witness(["shim", "log", join(dir, "bin", "shims.jsonl")]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/#1 codex {2}exit 4 {2}script/);
    expect(text.stdout).toContain('argv  ["exec", "a b"]');
    const json = await witness(["shim", "log", "--json", join(dir, "bin", "shims.jsonl")]);
    const parsed = JSON.parse(json.stdout) as {
      records: { argv: string[] }[];
      problems: unknown[];
    };
    expect(parsed.records.map((r) => r.argv)).toEqual([["exec", "a b"]]);
    expect(parsed.problems).toEqual([]);
  });

  it("installs a per-call plan from a YAML file", async () => {
    await writeFile(join(dir, "reply.txt"), "from file\n");
    await writeFile(
      join(dir, "plan.yaml"),
      "calls:\n  - stdout: one\n  - exitCode: 1\n    stdoutFile: reply.txt\n",
    );
    const installed = await witness([
      "shim",
      "install",
      "--dir",
      join(dir, "bin"),
      "--plan",
      join(dir, "plan.yaml"),
      "claude",
    ]);
    expect(installed.exitCode).toBe(0);
    const outs = [
      await run(join(dir, "bin", "claude"), []),
      await run(join(dir, "bin", "claude"), []),
    ];
    expect(outs.map((o) => [o.exitCode, o.stdout])).toEqual([
      [0, "one"],
      [1, "from file\n"],
    ]);
  });

  it("reports a damaged log line with its number and still prints the other records", async () => {
    await witness(["shim", "install", "--dir", dir, "claude"]);
    await run(join(dir, "claude"), ["first"]);
    await appendFile(join(dir, "shims.jsonl"), '{"v":1,"shim":"claude","argv":["tru\n');
    await run(join(dir, "claude"), ["third"]);
    await appendFile(join(dir, "shims.jsonl"), '{"v":1,"shim":"cl');
    const result = await witness(["shim", "log", "--json", join(dir, "shims.jsonl")]);
    expect(result.exitCode).toBe(2);
    const parsed = JSON.parse(result.stdout) as { records: { argv: string[] }[] };
    expect(parsed.records.map((r) => r.argv)).toEqual([["first"], ["third"]]);
    expect(result.stderr).toContain("line 2: not valid JSON");
    expect(result.stderr).toContain("line 4: truncated record");
  });

  it("shim assert: exit 0 on a match, exit 1 with the argv side by side, --plan with matchers", async () => {
    await witness(["shim", "install", "--dir", join(dir, "bin"), "claude"]);
    await run(join(dir, "bin", "claude"), ["-p", "Review the diff", "--model", "opus"]);
    const log = join(dir, "bin", "shims.jsonl");
    const ok = await witness([
      "shim",
      "assert",
      log,
      "claude",
      "--",
      "-p",
      "Review the diff",
      "--model",
      "opus",
    ]);
    expect([ok.exitCode, ok.stdout]).toEqual([0, ""]);
    const matched = await witness([
      "shim",
      "assert",
      log,
      "claude",
      "--argv",
      '["-p", {"contains": "Review"}, "--model", {"anything": true}]',
    ]);
    expect(matched.exitCode).toBe(0);
    const bad = await witness([
      "shim",
      "assert",
      log,
      "claude",
      "--",
      "-p",
      "Review the diff",
      "--model",
      "sonnet",
    ]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toMatch(/3 "sonnet"\s+≠ "opus"/);
    const plan = join(dir, "expect.yaml");
    await writeFile(
      plan,
      'calls:\n  - { shim: claude, argv: ["-p", { matches: "^Review" }, "--model", "opus"], times: 1 }\n  - { shim: codex }\n',
    );
    const json = await witness(["shim", "assert", log, "--plan", plan, "--json"]);
    expect(json.exitCode).toBe(1);
    expect(
      (JSON.parse(json.stdout) as { checks: { shim: string; pass: boolean }[] }).checks.map((c) => [
        c.shim,
        c.pass,
      ]),
    ).toEqual([
      ["claude", true],
      ["codex", false],
    ]);
    const both = await witness(["shim", "assert", log, "claude", "--plan", plan]);
    expect(both.exitCode).toBe(2);
  });

  it.each([
    [
      "an unknown option",
      (d: string) => ["shim", "install", "--dir", d, "claude", "--bogus"],
      /unknown option --bogus/,
    ],
    [
      "a name with a slash",
      (d: string) => ["shim", "install", "--dir", d, "bin/claude"],
      /contains a slash; give a bare command name/,
    ],
    [
      "an unwritable directory",
      (d: string) => ["shim", "install", "--dir", join(d, "file", "bin"), "claude"],
      /cannot write to the shim directory/,
    ],
    [
      "a missing log",
      (d: string) => ["shim", "log", join(d, "nope.jsonl")],
      /cannot read the shim log \(ENOENT\)/,
    ],
    [
      "an unfound pass-through target",
      (d: string) => ["shim", "install", "--dir", d, "--pass-through", "no-such-cli-xyz"],
      /no real "no-such-cli-xyz" on PATH.*--target/,
    ],
    [
      "contradictory flags",
      (d: string) => ["shim", "install", "--dir", d, "--pass-through", "--exit", "1", "claude"],
      /drop --exit/,
    ],
  ])("exits 2 without a stack trace for %s", async (_label, args, message) => {
    await writeFile(join(dir, "file"), "");
    const result = await witness(args(dir));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("writes nothing when an install is refused", async () => {
    const bin = join(dir, "bin");
    await mkdir(bin);
    await witness(["shim", "install", "--dir", bin, "claude", "bad/name"]);
    await expect(readFile(join(bin, "claude"))).rejects.toThrow(/ENOENT/);
  });
});

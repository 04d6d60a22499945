import { existsSync, realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { run, tempDir } from "../test/support/temp-dir.js";
import { installShims } from "./install.js";
import { readShimLog } from "./read-log.js";

const FIXTURE = join(import.meta.dirname, "test/fixtures/nasty-argv/spawn-claude.sh");

// Exactly what spawn-claude.sh passes, written independently of the script.
const EXPECTED_ARGV = [
  "-p",
  "--output-format=json",
  "hello world",
  "tab\there",
  "line one\nline two\n",
  "\n",
  "",
  'say "hi"',
  "it's",
  "back\\slash\\",
  "\\n is not a newline",
  "*",
  "?",
  "*.ts [ab]?",
  "$(touch pwned)",
  "`touch pwned2`",
  "$HOME",
  "${PATH}",
  "-",
  "--",
  "héllo wörld ✓ 日本語 🎉",
  "ctrl\u0001\u001b[31mred",
  "cr\r\nlf",
  "x=1",
  "-v",
  "-f",
  "x".repeat(100_000),
  'a"\\\n\t é|'.repeat(12_000),
];

describe("argv fidelity", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it("records a foreign script's nasty arguments byte for byte", async () => {
    const installed = await installShims({
      dir: join(dir, "bin"),
      names: ["claude"],
      behaviour: { kind: "script", outcome: { exitCode: 7, stdout: "ok\n" } },
    });
    const work = join(dir, "work");
    await mkdir(work);
    const result = await run(FIXTURE, [], {
      cwd: work,
      env: { PATH: `${installed.dir}:${process.env.PATH ?? ""}` },
    });
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe("ok\n");
    const log = await readShimLog(installed.log);
    expect(log.problems).toEqual([]);
    expect(log.records).toHaveLength(1);
    const record = log.records[0];
    expect(record?.argv).toHaveLength(EXPECTED_ARGV.length);
    EXPECTED_ARGV.forEach((arg, i) => expect(record?.argv[i], `argument ${i}`).toBe(arg));
    expect(record?.cwd).toBe(realpathSync(work));
    // Nothing in the arguments was ever evaluated by a shell.
    expect(existsSync(join(work, "pwned"))).toBe(false);
    expect(existsSync(join(work, "pwned2"))).toBe(false);
  });

  it("passes the same arguments through to the real binary unchanged", async () => {
    const installed = await installShims({
      dir: join(dir, "bin"),
      names: ["claude"],
      behaviour: {
        kind: "pass-through",
        target: join(import.meta.dirname, "test/fixtures/pass-through/echo-args.sh"),
      },
    });
    const result = await run(FIXTURE, [], {
      env: { PATH: `${installed.dir}:${process.env.PATH ?? ""}` },
    });
    expect(result.exitCode).toBe(0);
    const printed = result.stdout
      .slice(0, result.stdout.lastIndexOf("STDIN:"))
      .split("\0")
      .slice(0, -1);
    expect(printed).toEqual(EXPECTED_ARGV);
    const log = await readShimLog(installed.log);
    expect(log.records[0]?.argv).toEqual(EXPECTED_ARGV);
  });
});

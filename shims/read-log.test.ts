import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { InputError } from "../core/errors.js";
import { tempDir } from "../test/support/temp-dir.js";
import { parseShimLog, readShimLog } from "./read-log.js";

const record = (argv: string[]) =>
  JSON.stringify({
    v: 1,
    shim: "claude",
    argv,
    cwd: "/w",
    env: {},
    start: 1767225600000,
    pid: 2,
    ppid: 1,
    mode: "script",
    stdin: null,
    exitCode: 0,
  });

describe("parseShimLog", () => {
  it("reads every intact record in order", () => {
    const log = parseShimLog(`${record(["a"])}\n${record(["b"])}\n`, "log");
    expect(log.records.map((r) => r.argv)).toEqual([["a"], ["b"]]);
    expect(log.problems).toEqual([]);
  });

  it("reports bad lines by number and keeps reading the rest", () => {
    const text = [
      record(["a"]),
      "{not json",
      JSON.stringify({ v: 1, shim: "x" }),
      record(["d"]),
      '{"v":1,"sh',
    ].join("\n");
    const log = parseShimLog(text, "log");
    expect(log.records.map((r) => r.argv)).toEqual([["a"], ["d"]]);
    expect(log.problems.map((p) => p.line)).toEqual([2, 3, 5]);
    expect(log.lines).toEqual([1, 4]);
    expect(log.problems[0]?.message).toBe("not valid JSON");
    expect(log.problems[1]?.message).toMatch(/not a shim record \(argv: /);
    expect(log.problems[2]?.message).toMatch(/^truncated record/);
  });

  it("reads an empty log as no records", () => {
    expect(parseShimLog("", "log")).toEqual({ file: "log", records: [], lines: [], problems: [] });
  });
});

describe("readShimLog", () => {
  it("turns a missing file into an InputError that says what to do", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const attempt = readShimLog(join(dir, "missing.jsonl"));
      await expect(attempt).rejects.toBeInstanceOf(InputError);
      await expect(attempt).rejects.toThrow(
        /ENOENT.*run the code under test with the shims on PATH/,
      );
      await writeFile(join(dir, "ok.jsonl"), `${record([])}\n`);
      expect((await readShimLog("ok.jsonl", { cwd: dir })).records).toHaveLength(1);
    } finally {
      await cleanup();
    }
  });
});

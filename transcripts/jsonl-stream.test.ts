import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { type JsonlLine, recordType, streamJsonl } from "./jsonl-stream.js";

const dir = await mkdtemp(join(tmpdir(), "witness-jsonl-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function read(name: string, text: string) {
  const path = join(dir, name);
  await writeFile(path, text);
  const seen: JsonlLine[] = [];
  const summary = await streamJsonl(path, (line) => seen.push(line));
  return { seen, summary };
}

describe("streamJsonl", () => {
  it("hands each JSON line to the visitor with its 1-based line number", async () => {
    const { seen, summary } = await read("ok.jsonl", '{"type":"a"}\n{"type":"b","n":2}\n');
    expect(seen.map((l) => [l.line, l.value])).toEqual([
      [1, { type: "a" }],
      [2, { type: "b", n: 2 }],
    ]);
    expect(summary).toMatchObject({ lineCount: 2, broken: [] });
  });

  it("skips blank lines but keeps counting them, and accepts CRLF endings", async () => {
    const { seen, summary } = await read("crlf.jsonl", '{"type":"a"}\r\n\r\n{"type":"b"}\r\n');
    expect(seen.map((l) => l.line)).toEqual([1, 3]);
    expect(summary.lineCount).toBe(2);
  });

  it("reports a broken line by number and goes on, never throwing", async () => {
    const { seen, summary } = await read(
      "bad.jsonl",
      '{"type":"a"}\n{"type":\n[1,2]\n{"type":"c"}',
    );
    expect(summary.broken.map((b) => b.line)).toEqual([2]);
    expect(summary.broken[0]?.error).toMatch(/^not JSON: /);
    expect(seen.map((l) => l.line)).toEqual([1, 3, 4]);
    expect(summary.lineCount).toBe(4);
  });

  it("keeps the raw text for marker search", async () => {
    const { summary } = await read("raw.jsonl", '{"m":"WITNESS_X"}\nbroken WITNESS_Y\n');
    expect(summary.rawText).toContain("WITNESS_X");
    expect(summary.rawText).toContain("WITNESS_Y");
  });

  it("rejects a missing file, leaving absence to the caller", async () => {
    await expect(streamJsonl(join(dir, "absent.jsonl"), () => undefined)).rejects.toThrow(/ENOENT/);
  });
});

describe("recordType", () => {
  it.each([
    [{ type: "user" }, "user"],
    [{ type: 3 }, null],
    [[{ type: "user" }], null],
    ["user", null],
    [null, null],
  ])("reads the type of %j as %j", (value, expected) => {
    expect(recordType(value)).toBe(expected);
  });
});

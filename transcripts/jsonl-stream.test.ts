import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { DRIFT_ITEM_CAP, DriftLog, driftWarnings } from "./drift.js";
import { type JsonlLine, MarkerSearch, recordType, streamJsonl } from "./jsonl-stream.js";

const dir = await mkdtemp(join(tmpdir(), "witness-jsonl-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function read(name: string, text: string | Buffer) {
  const path = join(dir, name);
  await writeFile(path, text);
  const seen: JsonlLine[] = [];
  const drift = new DriftLog();
  const texts: number[] = [];
  const summary = await streamJsonl(path, (line) => seen.push(line), {
    drift,
    onText: (_, line) => texts.push(line),
  });
  return { seen, summary, drift: drift.result(), texts };
}

describe("streamJsonl", () => {
  it("hands each JSON line to the visitor with its 1-based line number", async () => {
    const { seen, summary } = await read("ok.jsonl", '{"type":"a"}\n{"type":"b","n":2}\n');
    expect(seen.map((l) => [l.line, l.value])).toEqual([
      [1, { type: "a" }],
      [2, { type: "b", n: 2 }],
    ]);
    expect(summary).toEqual({ lineCount: 2, brokenCount: 0, lastLine: 2 });
  });

  it("skips blank lines but keeps counting them, and accepts CRLF endings", async () => {
    const { seen, summary } = await read("crlf.jsonl", '{"type":"a"}\r\n\r\n{"type":"b"}\r\n');
    expect(seen.map((l) => l.line)).toEqual([1, 3]);
    expect(summary.lineCount).toBe(2);
  });

  it("notes a garbage line in the middle by number and goes on, never throwing", async () => {
    const { seen, summary, drift } = await read(
      "bad.jsonl",
      '{"type":"a"}\n{"type":\n[1,2]\n{"type":"c"}',
    );
    expect(drift.items.map((i) => [i.line, i.kind])).toEqual([[2, "not-json"]]);
    expect(drift.items[0]?.detail).toMatch(/^not JSON: /);
    expect(seen.map((l) => l.line)).toEqual([1, 3, 4]);
    expect(summary).toMatchObject({ lineCount: 4, brokenCount: 1 });
  });

  it("says a cut-off last line is cut off", async () => {
    const { seen, drift } = await read("cut.jsonl", '{"type":"a"}\n{"type":"b","text":"half');
    expect(seen).toHaveLength(1);
    expect(drift.items).toEqual([
      {
        line: 2,
        kind: "not-json",
        subject: "",
        detail: expect.stringMatching(
          /^the last line is not complete JSON \(cut off mid-write\?\): /,
        ) as string,
      },
    ]);
  });

  it("drops a byte-order mark before the first line instead of losing the line", async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"type":"a"}\n')]);
    const { seen, drift } = await read("bom.jsonl", bom);
    expect(seen.map((l) => l.value)).toEqual([{ type: "a" }]);
    expect(drift.items).toEqual([]);
  });

  it("reads an empty file as no line at all", async () => {
    const { seen, summary, drift } = await read("empty.jsonl", "");
    expect(seen).toEqual([]);
    expect(summary).toEqual({ lineCount: 0, brokenCount: 0, lastLine: 0 });
    expect(drift.items).toEqual([]);
  });

  it("shows every non-empty line's text to onText, broken ones included", async () => {
    const { texts } = await read("text.jsonl", '{"a":1}\n\nnot json\n{"b":2}\n');
    expect(texts).toEqual([1, 3, 4]);
  });

  it("rejects a missing file, leaving absence to the caller", async () => {
    await expect(
      streamJsonl(join(dir, "absent.jsonl"), () => undefined, { drift: new DriftLog() }),
    ).rejects.toThrow(/ENOENT/);
  });
});

describe("MarkerSearch", () => {
  it("finds a value as written and as it reads inside a JSON string, once", () => {
    const search = new MarkerSearch(["WITNESS-A", 'say "hi"', "WITNESS-ABSENT", ""]);
    search.scan('{"text":"x WITNESS-A y"}');
    search.scan('{"text":"say \\"hi\\""}');
    search.scan("WITNESS-A again");
    expect(search.seen()).toEqual(["WITNESS-A", 'say "hi"']);
  });
});

describe("DriftLog", () => {
  it("counts every item but lists at most the cap, and says how many it left off", () => {
    const log = new DriftLog();
    for (let line = 1; line <= DRIFT_ITEM_CAP + 5; line += 1)
      log.note(line, "unknown-record", "x", "unknown x");
    const drift = log.result();
    expect(drift.items).toHaveLength(DRIFT_ITEM_CAP);
    expect(drift.omitted).toBe(5);
    expect(drift.counts).toEqual({ "unknown-record x": DRIFT_ITEM_CAP + 5 });
    const warnings = driftWarnings("/t.jsonl", drift, 2);
    expect(warnings).toEqual([
      "/t.jsonl:1: unknown x",
      "/t.jsonl:2: unknown x",
      `/t.jsonl: ${DRIFT_ITEM_CAP + 3} more line(s) not fully read (in all: ${DRIFT_ITEM_CAP + 5} unknown-record x)`,
    ]);
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

import { describe, expect, it } from "vitest";

import { run } from "../test/support/temp-dir.js";
import { shQuote } from "./sh-quote.js";

const NASTY = [
  "",
  "plain",
  "it's",
  "'",
  "''",
  "a b\tc\nd",
  "$(echo pwned)",
  "`id`",
  "\\",
  "*?[a]",
  "-n",
  "é ✓ 日本",
  '"$HOME"',
];

describe("shQuote", () => {
  it.each(NASTY.map((s) => [s]))("makes sh print %j back unchanged", async (value) => {
    const result = await run("/bin/sh", ["-c", `printf '%s' ${shQuote(value)}`]);
    expect(result.stdout).toBe(value);
  });

  it("refuses a NUL byte, which no shell word can hold", () => {
    expect(() => shQuote("a\0b")).toThrow(/NUL/);
  });
});

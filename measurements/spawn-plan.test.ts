import { describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { parseShard, type PlannedSpawn, shardSpawns } from "./spawn-plan.js";

describe("--shard", () => {
  it.each([
    ["1/1", { index: 1, count: 1 }],
    ["2/3", { index: 2, count: 3 }],
    [" 3/3 ", { index: 3, count: 3 }],
  ])("reads %j", (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  it.each([
    ["0/3", "expected i from 1 to 3; got 0"],
    ["4/3", "expected i from 1 to 3; got 4"],
    ["1/0", "expected n from 1 to 256; got 0"],
    ["1/999", "expected n from 1 to 256; got 999"],
    ["2", "expected <i>/<n>, e.g. 2/3"],
    ["a/b", "expected <i>/<n>, e.g. 2/3"],
  ])("refuses %j (exit 2, named)", (text, message) => {
    expect(() => parseShard(text)).toThrow(UsageError);
    expect(() => parseShard(text)).toThrow(`--shard "${text}": ${message}`);
  });

  it("deals the plan's spawns round-robin: every spawn in exactly one shard", () => {
    const spawns = Array.from({ length: 10 }, (_, k) => ({ key: `s${k}` }) as PlannedSpawn);
    const parts = [1, 2, 3].map((index) =>
      shardSpawns(spawns, { index, count: 3 }).map((s) => s.key),
    );
    expect(parts).toEqual([
      ["s0", "s3", "s6", "s9"],
      ["s1", "s4", "s7"],
      ["s2", "s5", "s8"],
    ]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { budgetFor, timeOf } from "../test/support/machine-pace.js";
import { run, tempDir } from "../test/support/temp-dir.js";
import { installShims } from "./install.js";
import { readShimLog } from "./read-log.js";

// Starts N shims at once from one sh, each with its index and an argument of `size` bytes.
const BURST = `
n=$1; size=$2
big=$(printf "%\${size}s" "" | tr " " y)
i=1
while [ $i -le $n ]; do
  claude "$i" "$big" </dev/null &
  i=$((i + 1))
done
wait
`;

// The same calls one after the other: the reference pace of this machine, now.
const SERIAL = `
n=$1; size=$2
big=$(printf "%\${size}s" "" | tr " " y)
i=1
while [ $i -le $n ]; do
  claude "$i" "$big" </dev/null
  i=$((i + 1))
done
`;

const shell = (dir: string, script: string, n: number, size: number, timeoutMs: number) =>
  run("/bin/sh", ["-c", script, "calls", String(n), String(size)], {
    env: { PATH: `${dir}:${process.env.PATH ?? ""}` },
    timeoutMs,
  });

// A hundred 100 KB records through the mkdir lock are the slowest burst (waiters poll the lock,
// so contention costs more than the calls in a row would): the budget for a burst is ten times
// what a hundred such calls in a row would take at the pace five took here before the tests
// started, and at least the 30 s it used to be.
const REFERENCE_CALLS = 5;
const referenceMs = await (async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await installShims({ dir, names: ["claude"], forceMkdirLock: true });
    return await timeOf(async () => {
      const result = await shell(dir, SERIAL, REFERENCE_CALLS, 100_000, 120_000);
      if (result.exitCode !== 0) throw new Error(`reference calls failed: ${result.stderr}`);
    });
  } finally {
    await cleanup();
  }
})();
const BURST_BUDGET = budgetFor(referenceMs / REFERENCE_CALLS, 100, {
  headroom: 10,
  floor: 30_000,
});

async function burst(dir: string, n: number, size: number, forceMkdirLock = false) {
  const s = await installShims({ dir, names: ["claude"], forceMkdirLock });
  const result = await shell(dir, BURST, n, size, BURST_BUDGET);
  expect(result.exitCode, `timed out: ${result.timedOut}; ${result.stderr}`).toBe(0);
  return readShimLog(s.log);
}

describe("concurrent invocations", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it.each([
    ["small records (one write each)", 10, false],
    ["100 KB records (flock)", 100_000, false],
    ["100 KB records (mkdir lock fallback)", 100_000, true],
  ])(
    "gives a hundred intact records for a hundred calls: %s",
    async (_label, size, forceMkdirLock) => {
      const log = await burst(dir, 100, size, forceMkdirLock);
      expect(log.problems).toEqual([]);
      expect(log.records).toHaveLength(100);
      const indexes = log.records.map((r) => Number(r.argv[0])).sort((a, b) => a - b);
      expect(indexes).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      for (const r of log.records) expect(r.argv[1]).toBe("y".repeat(size));
    },
    BURST_BUDGET + 30_000,
  );

  it(
    "gives every concurrent call of a plan its own step, and the rest fail as beyond the plan",
    async () => {
      const calls = Array.from({ length: 50 }, (_, i) => ({ stdout: `step ${i + 1}` }));
      const s = await installShims({ dir, names: ["claude"], behaviour: { kind: "plan", calls } });
      const result = await shell(dir, BURST, 60, 1, BURST_BUDGET);
      expect(result.exitCode).toBe(0);
      const log = await readShimLog(s.log);
      expect(log.problems).toEqual([]);
      const numbers = log.records.map((r) => r.call ?? 0).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect(log.records.filter((r) => r.beyondPlan === true)).toHaveLength(10);
      expect(new Set(result.stdout.match(/step \d+/g))).toEqual(
        new Set(calls.map((c) => c.stdout)),
      );
    },
    BURST_BUDGET + 30_000,
  );
});

// Time budgets that scale with this machine as it is loaded now: a budget is a multiple of what a
// reference piece of the same work took here moments before, never a fixed number of seconds.
import { performance } from "node:perf_hooks";

/** The median of `runs` timings of `task`, here and now, in milliseconds. */
export async function timeOf(task: () => Promise<unknown>, runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

/**
 * A budget for `units` times the reference work: `headroom` times what they took at the reference
 * pace (the load may rise between the two), and never under `floor` milliseconds.
 */
export function budgetFor(
  referenceMs: number,
  units: number,
  { headroom = 5, floor = 10_000 }: { headroom?: number; floor?: number } = {},
): number {
  return Math.max(floor, Math.ceil(referenceMs * units * headroom));
}

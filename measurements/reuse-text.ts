// A record's reuse of the spawn cache in words, for the Markdown record and the run's output.
import type { MeasurementRecord } from "./record.js";

/** How many of a record's spawns were taken from the spawn cache, of how many, and from which runs. */
export function reuseTally(record: MeasurementRecord): {
  reused: number;
  of: number;
  runs: string[];
} {
  const spawns = record.arms.flatMap((a) => a.spawns);
  const reused = spawns.flatMap((s) => (s.reused === undefined ? [] : [s.reused.run]));
  return { reused: reused.length, of: spawns.length, runs: [...new Set(reused)].sort() };
}

/** The record's reuse in a line, or null when every spawn ran in its own run. */
export function reuseText(record: MeasurementRecord): string | null {
  const t = reuseTally(record);
  if (t.reused === 0) return null;
  const rest = t.reused === t.of ? "" : ", the rest run now";
  return `${t.reused} of ${t.of} spawns taken from the spawn cache (inputs identical; first run in ${t.runs.join(", ")})${rest}`;
}

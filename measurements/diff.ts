import type { MeasurementRecord } from "./record.js";

/** One arm compared across two records. */
export interface ArmDiff {
  arm: string;
  before: string;
  after: string;
  changed: boolean;
  /** Predicates whose pass counts differ, e.g. `marker-absent HOME 3/3 -> 0/3`. */
  predicates: string[];
}

/** Arm by arm: verdicts and per-predicate pass counts of `a` against `b`. */
export function diffRecords(a: MeasurementRecord, b: MeasurementRecord): ArmDiff[] {
  const ids = [...new Set([...a.arms.map((x) => x.id), ...b.arms.map((x) => x.id)])];
  return ids.map((id) => {
    const before = a.arms.find((x) => x.id === id);
    const after = b.arms.find((x) => x.id === id);
    const labels = [
      ...new Set([...(before?.tally ?? []), ...(after?.tally ?? [])].map((t) => t.label)),
    ];
    const predicates = labels.flatMap((label) => {
      const x = before?.tally.find((t) => t.label === label);
      const y = after?.tally.find((t) => t.label === label);
      const show = (t: typeof x): string => (t === undefined ? "-" : `${t.passed}/${t.of}`);
      return show(x) === show(y) ? [] : [`${label} ${show(x)} -> ${show(y)}`];
    });
    const v1 = before?.verdict ?? "absent";
    const v2 = after?.verdict ?? "absent";
    return {
      arm: id,
      before: v1,
      after: v2,
      changed: v1 !== v2 || predicates.length > 0,
      predicates,
    };
  });
}

/** True when every arm of `b` has the verdict it has in `a`, and the overall verdict matches. */
export function sameVerdicts(a: MeasurementRecord, b: MeasurementRecord): boolean {
  return a.verdict === b.verdict && diffRecords(a, b).every((d) => d.before === d.after);
}

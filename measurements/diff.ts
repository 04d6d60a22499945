import { UsageError } from "../core/errors.js";
import type { ArmRecord, MeasurementRecord } from "./record.js";

/** A spawn that was not evidence, on one side of a diff, and why. */
export interface FaultedSpawn {
  side: "before" | "after";
  spawn: number;
  reasons: string[];
}

/** One arm compared across two records. */
export interface ArmDiff {
  arm: string;
  before: string;
  after: string;
  /** True when the arm's verdict differs: what a release check gates on. */
  verdictChanged: boolean;
  /** True when the verdict or a predicate's pass rate differs. */
  changed: boolean;
  /**
   * Predicates whose pass counts differ among the spawns that were evidence on both sides, e.g.
   * `marker-absent HOME 3/3 -> 0/3`; a side with no such spawn shows none (a fault is not drift).
   */
  predicates: string[];
  /** The spawns that faulted, each with its reasons. */
  faulted: FaultedSpawn[];
}

/** Two records of one protocol compared: overall, arm by arm. */
export interface RecordDiff {
  protocol: string;
  from: { cli: string; version: string };
  to: { cli: string; version: string };
  overall: { before: string; after: string };
  /** True when the two ran different versions (locks) of the protocol. */
  protocolChanged: boolean;
  arms: ArmDiff[];
  /** True when any arm's verdict (or the overall one) changed. */
  verdictChanged: boolean;
}

function faults(arm: ArmRecord | undefined, side: FaultedSpawn["side"]): FaultedSpawn[] {
  return (arm?.spawns ?? [])
    .filter((s) => s.status === "fault")
    .map((s) => ({ side, spawn: s.index, reasons: s.faults }));
}

function predicateDrift(before: ArmRecord | undefined, after: ArmRecord | undefined): string[] {
  const labels = [
    ...new Set([...(before?.tally ?? []), ...(after?.tally ?? [])].map((t) => t.label)),
  ];
  return labels.flatMap((label) => {
    const x = before?.tally.find((t) => t.label === label);
    const y = after?.tally.find((t) => t.label === label);
    // Only spawns that were evidence count: 0 of 0 is no data, not a predicate that stopped holding.
    if (x === undefined || y === undefined || x.of === 0 || y.of === 0) return [];
    if (x.passed * y.of === y.passed * x.of) return [];
    return [`${label} ${x.passed}/${x.of} -> ${y.passed}/${y.of}`];
  });
}

/** Arm by arm: verdicts, predicate pass rates and faulted spawns of `a` against `b`. */
export function diffRecords(a: MeasurementRecord, b: MeasurementRecord): ArmDiff[] {
  const ids = [...new Set([...a.arms.map((x) => x.id), ...b.arms.map((x) => x.id)])];
  return ids.map((id) => {
    const before = a.arms.find((x) => x.id === id);
    const after = b.arms.find((x) => x.id === id);
    const v1 = before?.verdict ?? "absent";
    const v2 = after?.verdict ?? "absent";
    const predicates = predicateDrift(before, after);
    return {
      arm: id,
      before: v1,
      after: v2,
      verdictChanged: v1 !== v2,
      changed: v1 !== v2 || predicates.length > 0,
      predicates,
      faulted: [...faults(before, "before"), ...faults(after, "after")],
    };
  });
}

/** Compares two records of one protocol; two different protocols are refused (exit 2). */
export function compareRecords(a: MeasurementRecord, b: MeasurementRecord): RecordDiff {
  if (a.protocol.id !== b.protocol.id)
    throw new UsageError(
      `the records are of different protocols (${a.protocol.id} ${a.protocol.slug}, ${b.protocol.id} ${b.protocol.slug}); diff compares one protocol's records`,
    );
  const arms = diffRecords(a, b);
  return {
    protocol: `${a.protocol.id} ${a.protocol.slug}`,
    from: { cli: a.cli.name, version: a.cli.version },
    to: { cli: b.cli.name, version: b.cli.version },
    overall: { before: a.verdict, after: b.verdict },
    protocolChanged: a.protocol.canonicalHash !== b.protocol.canonicalHash,
    arms,
    verdictChanged: a.verdict !== b.verdict || arms.some((d) => d.verdictChanged),
  };
}

/** The diff as lines: `~` marks a changed arm; faulted spawns are named with their reasons. */
export function renderDiff(d: RecordDiff): string {
  const out = [
    `${d.protocol}: ${d.from.cli}@${d.from.version} -> ${d.to.cli}@${d.to.version}`,
    `overall: ${d.overall.before} -> ${d.overall.after}`,
  ];
  if (d.protocolChanged) out.push("note: the records ran different versions of the protocol");
  for (const a of d.arms) {
    out.push(
      `${a.changed ? "~" : " "} ${a.arm}: ${a.before === a.after ? a.before : `${a.before} -> ${a.after}`}`,
    );
    for (const p of a.predicates) out.push(`    ${p}`);
    for (const f of a.faulted)
      out.push(
        `    ${f.side === "before" ? "before" : "after"}: spawn ${f.spawn} faulted: ${f.reasons.join("; ")}`,
      );
  }
  out.push(d.verdictChanged ? "verdicts changed" : "no verdict changed");
  return `${out.join("\n")}\n`;
}

/** True when every arm of `b` has the verdict it has in `a`, and the overall verdict matches. */
export function sameVerdicts(a: MeasurementRecord, b: MeasurementRecord): boolean {
  return a.verdict === b.verdict && diffRecords(a, b).every((d) => d.before === d.after);
}

/** True when every arm of `ids` has in `b` the verdict it has in `a` (a partial run's check). */
export function sameArmVerdicts(
  a: MeasurementRecord,
  b: MeasurementRecord,
  ids: readonly string[],
): boolean {
  return ids.every((id) => {
    const x = a.arms.find((arm) => arm.id === id)?.verdict;
    return x !== undefined && x === b.arms.find((arm) => arm.id === id)?.verdict;
  });
}

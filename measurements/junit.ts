// A run as JUnit: one suite per protocol and version, one case per arm. A refuted arm is a
// failure whose text is its predicates' explanations; an inconclusive one is an error (the
// measurement itself did not answer); a confirmed one passes.
import type { JunitCase, JunitSuite } from "../core/junit-xml.js";
import type { ArmRecord, MeasurementRecord } from "./record.js";

function spawnLines(arm: ArmRecord): string[] {
  return arm.spawns.flatMap((s) => {
    if (s.status === "fault") return [`spawn ${s.index}: fault: ${s.faults.join("; ")}`];
    return s.predicates
      .filter((p) => !p.pass)
      .map((p) => `spawn ${s.index}: ${p.label}: ${p.explanation}`);
  });
}

/** One case per arm of `record`. */
export function armCases(record: MeasurementRecord): JunitCase[] {
  const classname = `${record.protocol.id}-${record.protocol.slug}.${record.cli.name}@${record.cli.version}`;
  return record.arms.map((arm) => {
    const time = arm.spawns.reduce((sum, s) => sum + (s.observation?.durationMs ?? 0), 0) / 1000;
    const text = [...arm.reasons, ...spawnLines(arm)].join("\n");
    const base = { name: arm.id, classname, time, file: record.protocol.file };
    if (arm.verdict === "refuted")
      return {
        ...base,
        failure: { message: `refuted: ${arm.reasons[1] ?? arm.reasons[0] ?? ""}`, text },
      };
    if (arm.verdict === "inconclusive")
      return { ...base, error: { message: `inconclusive: ${arm.reasons[0] ?? ""}`, text } };
    return base;
  });
}

/** One suite per record. */
export function recordSuites(records: readonly MeasurementRecord[]): JunitSuite[] {
  return records.map((r) => ({
    name: `${r.protocol.id} ${r.protocol.slug} on ${r.cli.name}@${r.cli.version}`,
    timestamp: r.startedAt,
    cases: armCases(r),
  }));
}

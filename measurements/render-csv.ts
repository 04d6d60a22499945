import { stringify } from "csv-stringify/sync";

import type { MeasurementRecord } from "./record.js";

const COLUMNS = [
  "protocol",
  "cli",
  "cli_version_run",
  "arm",
  "arm_verdict",
  "spawn",
  "spawn_status",
  "predicate",
  "pass",
  "explanation",
  "exit_code",
  "duration_ms",
] as const;

/** The record as CSV: one row per spawn × predicate (a faulted spawn without predicates gets one row). */
export function renderCsv(record: MeasurementRecord): string {
  const rows: (string | number | boolean | null)[][] = [];
  for (const arm of record.arms) {
    for (const spawn of arm.spawns) {
      const obs = spawn.observation;
      const base = [
        record.protocol.id,
        record.cli.name,
        obs?.cli.version ?? "",
        arm.id,
        arm.verdict,
        spawn.index,
        spawn.status,
      ];
      const tail = [obs?.exitCode ?? null, obs === null ? null : Math.round(obs.durationMs)];
      if (spawn.predicates.length === 0)
        rows.push([...base, "", "", spawn.faults.join("; "), ...tail]);
      for (const p of spawn.predicates)
        rows.push([...base, p.label, p.pass, p.explanation, ...tail]);
    }
  }
  return stringify(rows, {
    header: true,
    columns: [...COLUMNS],
    cast: { boolean: (b) => (b ? "true" : "false") },
  });
}

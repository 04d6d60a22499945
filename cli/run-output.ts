// What `witness run` and `witness merge` print: a line per finished arm, a block per record, the
// closing summary line, annotations for the CI, and the JSON document.
import { shownPath } from "../core/display-path.js";
import type { Reproduction } from "../measurements/committed-record.js";
import type { MeasurementRecord } from "../measurements/record.js";
import type { ArmDone, ProtocolRun } from "../measurements/run-protocols.js";
import { type Annotation, detectCi, renderAnnotation } from "./ci-annotations.js";

/** The line after a run that says how it compares with the committed record. */
export function reproductionLine(r: Reproduction): string {
  if (r.kind === "none") return r.why;
  const spawns =
    r.spawns === null
      ? ""
      : ` (spawn counts differ: ${r.spawns.committed} per arm committed, ${r.spawns.now} now)`;
  return `${r.reproduces ? "reproduces the verdicts of" : "DIFFERS from the verdicts of"} the committed ${r.committed}${spawns}`;
}

/** One plain line for a finished arm (in a shard: the statuses of its spawns run there). */
export function armLine(a: ArmDone): string {
  const head = `${a.protocol} ${a.slug} on ${a.cli} ${a.arm}`;
  if (a.verdict === null)
    return `${head}: ${a.statuses.length} spawn(s) here: ${a.statuses.join(", ")}`;
  return `${head}: ${a.verdict}${a.verdict === "confirmed" ? "" : ` (${a.reasons.join("; ")})`}`;
}

/** `N arms: x confirmed, y refuted, z inconclusive` over the records. */
export function summaryLine(records: readonly MeasurementRecord[]): string {
  const arms = records.flatMap((r) => r.arms);
  const n = (v: string) => arms.filter((a) => a.verdict === v).length;
  return `${arms.length} arms: ${n("confirmed")} confirmed, ${n("refuted")} refuted, ${n("inconclusive")} inconclusive`;
}

/** The block printed per record once the run is done. */
export function recordBlock(run: ProtocolRun, cwd: string): string[] {
  const r = run.record;
  const partial =
    r.selection === undefined
      ? ""
      : ` (arms ${r.selection.arms.join(", ")} only: not evidence of the whole protocol)`;
  return [
    `${r.protocol.id} ${r.protocol.slug} on ${r.cli.name}@${r.cli.version}: ${r.verdict}${partial}`,
    `  record: ${shownPath(run.written.json, cwd)} (.md, .csv beside it)`,
    `  ${reproductionLine(run.reproduction)}`,
  ];
}

/** The annotations of the arms that did not confirm (none outside a detected CI). */
export function runAnnotations(
  records: readonly MeasurementRecord[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const ci = detectCi(env);
  if (ci === null) return [];
  return records.flatMap((r) =>
    r.arms
      .filter((a) => a.verdict !== "confirmed")
      .map((a) => {
        const annotation: Annotation = {
          level: a.verdict === "refuted" ? "error" : "warning",
          file: r.protocol.file,
          title: `${r.protocol.id} ${a.id} on ${r.cli.name}@${r.cli.version}: ${a.verdict}`,
          message: a.reasons.join("\n"),
        };
        return renderAnnotation(ci, annotation);
      }),
  );
}

/** The JSON document of a run: each record in brief, where it went, and the counts. */
export function runJson(runs: readonly ProtocolRun[], skipped: readonly string[]) {
  const records = runs.map((r) => r.record);
  const arms = records.flatMap((r) => r.arms);
  const count = (v: string) => arms.filter((a) => a.verdict === v).length;
  return {
    ok: arms.every((a) => a.verdict === "confirmed"),
    summary: {
      arms: arms.length,
      confirmed: count("confirmed"),
      refuted: count("refuted"),
      inconclusive: count("inconclusive"),
    },
    runs: runs.map((run) => ({
      protocol: {
        id: run.record.protocol.id,
        slug: run.record.protocol.slug,
        file: run.record.protocol.file,
      },
      cli: { name: run.record.cli.name, version: run.record.cli.version },
      verdict: run.record.verdict,
      ...(run.record.selection === undefined ? {} : { selection: run.record.selection }),
      arms: run.record.arms.map((a) => ({
        id: a.id,
        verdict: a.verdict,
        reasons: a.reasons,
        tally: a.tally,
      })),
      record: run.written,
      reproduction: run.reproduction,
    })),
    skipped,
  };
}

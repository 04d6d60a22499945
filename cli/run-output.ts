// What `witness run` and `witness merge` print: a line per finished arm, a block per record, the
// closing summary line, annotations for the CI, and the JSON document.
import { shownPath } from "../core/display-path.js";
import type { Reproduction } from "../measurements/committed-record.js";
import type { MeasurementRecord } from "../measurements/record.js";
import type { ArmDone, ProtocolRun } from "../measurements/run-protocols.js";
import { type Annotation, detectCi, renderAnnotation } from "./ci-annotations.js";
import type { Gate } from "./common-options.js";

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
  if (a.verdict === null && a.reasons.length > 0) return `${head}: ${a.reasons.join("; ")}`;
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

/** What keeps `runs` from passing `gate`, a line each; empty when they pass. */
export function gateFailures(runs: readonly ProtocolRun[], gate: Gate): string[] {
  return runs.flatMap((run) => {
    const r = run.record;
    const name = `${r.protocol.id} ${r.protocol.slug} on ${r.cli.name}@${r.cli.version}`;
    if (gate === "confirmed")
      return r.arms
        .filter((a) => a.verdict !== "confirmed")
        .map((a) => `${name} ${a.id}: ${a.verdict}`);
    const reproduction = run.reproduction;
    if (reproduction.kind === "compared" && reproduction.reproduces) return [];
    return [`${name}: ${reproductionLine(reproduction)}`];
  });
}

/** The closing line of a run judged by `--gate reproduces` (the confirmed gate has the summary). */
export function gateLine(runs: readonly ProtocolRun[], failures: readonly string[]): string {
  if (failures.length === 0)
    return `gate reproduces: all ${runs.length} records reproduce the verdicts of their committed records`;
  return [
    `gate reproduces: ${failures.length} of ${runs.length} records do not reproduce their committed verdicts:`,
    ...failures.map((f) => `  ${f}`),
  ].join("\n");
}

/**
 * The CI annotations (none outside a detected CI): under the confirmed gate each arm that did not
 * confirm; under the reproduces gate each record that does not reproduce its committed one.
 */
export function runAnnotations(
  runs: readonly ProtocolRun[],
  env: Readonly<Record<string, string | undefined>>,
  gate: Gate = "confirmed",
): string[] {
  const ci = detectCi(env);
  if (ci === null) return [];
  if (gate === "reproduces")
    return runs
      .filter((run) => !(run.reproduction.kind === "compared" && run.reproduction.reproduces))
      .map((run) => {
        const r = run.record;
        return renderAnnotation(ci, {
          level: "error",
          file: r.protocol.file,
          title: `${r.protocol.id} on ${r.cli.name}@${r.cli.version} does not reproduce its committed verdicts`,
          message: reproductionLine(run.reproduction),
        });
      });
  return runs
    .map((run) => run.record)
    .flatMap((r) =>
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
export function runJson(
  runs: readonly ProtocolRun[],
  skipped: readonly string[],
  gate: Gate = "confirmed",
) {
  const records = runs.map((r) => r.record);
  const arms = records.flatMap((r) => r.arms);
  const count = (v: string) => arms.filter((a) => a.verdict === v).length;
  return {
    ok: gateFailures(runs, gate).length === 0,
    gate,
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

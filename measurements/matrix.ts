// The behaviour matrix of each CLI: protocol arm × published version → verdict, each cell the
// record it came from, and per version with evidence the arms whose verdict changed from the
// version before it (a flip). Built from the records on disk, over the records `chosenRecords`
// counts, so it agrees with `witness drift`.
import { compareVersions } from "../core/version-order.js";
import { chosenRecords } from "./drift.js";
import type { MeasurementRecord } from "./record.js";
import type { RecordFile } from "./watch-plan.js";

/** One arm's verdict on one version, and the record that says so. */
export interface MatrixCell {
  verdict: string;
  record: string;
}

/** One protocol arm across the versions it ran on. */
export interface MatrixRow {
  protocol: string;
  slug: string;
  title: string;
  arm: string;
  cells: Record<string, MatrixCell>;
}

/** An arm whose verdict differs from the one on the previous version it ran on. */
export interface MatrixFlip {
  protocol: string;
  slug: string;
  arm: string;
  from: string;
  to: string;
  before: string;
  after: string;
}

/** One version with evidence: what ran there and what flipped on it. */
export interface ReleaseEntry {
  version: string;
  /** When its newest record finished. */
  date: string;
  protocols: string[];
  flips: MatrixFlip[];
}

/** One CLI's matrix. */
export interface CliMatrix {
  cli: string;
  versions: string[];
  rows: MatrixRow[];
  /** Newest first. */
  releases: ReleaseEntry[];
}

function rowsOf(mine: readonly MeasurementRecord[], fileOf: (r: MeasurementRecord) => string) {
  const rows: MatrixRow[] = [];
  const protocols = [...new Set(mine.map((r) => r.protocol.id))].sort();
  for (const id of protocols) {
    const ofProtocol = mine.filter((r) => r.protocol.id === id);
    const head = ofProtocol[0]?.protocol;
    const arms = [...new Set(ofProtocol.flatMap((r) => r.arms.map((a) => a.id)))];
    for (const arm of arms) {
      const cells: Record<string, MatrixCell> = {};
      for (const r of ofProtocol) {
        const found = r.arms.find((a) => a.id === arm);
        if (found !== undefined)
          cells[r.cli.version] = { verdict: found.verdict, record: fileOf(r) };
      }
      rows.push({ protocol: id, slug: head?.slug ?? "", title: head?.title ?? "", arm, cells });
    }
  }
  return rows;
}

function flipsOf(row: MatrixRow, versions: readonly string[]): MatrixFlip[] {
  const flips: MatrixFlip[] = [];
  let previous: { version: string; verdict: string } | null = null;
  for (const version of versions) {
    const cell = row.cells[version];
    if (cell === undefined) continue;
    if (previous !== null && previous.verdict !== cell.verdict)
      flips.push({
        protocol: row.protocol,
        slug: row.slug,
        arm: row.arm,
        from: previous.version,
        to: version,
        before: previous.verdict,
        after: cell.verdict,
      });
    previous = { version, verdict: cell.verdict };
  }
  return flips;
}

/** Every CLI's matrix from the records on disk; `sameLock` as for `driftTables`. */
export function buildMatrices(
  files: readonly RecordFile[],
  sameLock: ReadonlyMap<string, string> = new Map(),
): CliMatrix[] {
  const fileBy = new Map(files.map((f) => [f.record, f.file]));
  const fileOf = (r: MeasurementRecord) => fileBy.get(r) ?? "";
  const chosen = chosenRecords(
    files.map((f) => f.record),
    sameLock,
  );
  const clis = [...new Set(chosen.map((r) => r.cli.name))].sort();
  return clis.map((cli) => {
    const mine = chosen.filter((r) => r.cli.name === cli);
    const versions = [...new Set(mine.map((r) => r.cli.version))].sort(compareVersions);
    const rows = rowsOf(mine, fileOf);
    const flips = rows.flatMap((row) => flipsOf(row, versions));
    const releases = versions
      .map((version) => {
        const here = mine.filter((r) => r.cli.version === version);
        return {
          version,
          date:
            here
              .map((r) => r.finishedAt)
              .sort()
              .at(-1) ?? "",
          protocols: [...new Set(here.map((r) => r.protocol.id))].sort(),
          flips: flips.filter((f) => f.to === version),
        };
      })
      .reverse();
    return { cli, versions, rows, releases };
  });
}

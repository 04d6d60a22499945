// `witness report`: gathers what the evidence page shows (the gate, the support table with the
// records it cites, every committed record, the drift between versions) and writes the page.
import { join, resolve } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";
import { makeDirs } from "../core/make-dirs.js";
import { chosenRecords, driftTables } from "../measurements/drift.js";
import { buildMatrices } from "../measurements/matrix.js";
import { AMBIENT_SUPPORT } from "../orchestrator/policy/ambient-support.js";
import { reexpressedHashes } from "../prereg/verify.js";
import { renderEvidencePage, type SupportMatrixCell } from "./evidence-page.js";
import { questionsOf } from "./evidence-questions.js";
import { judgeAdr, loadGateContext } from "./gate.js";
import { gateSupportTable } from "./support-table.js";

/** Options of `writeEvidencePage`. */
export interface ReportOptions {
  cwd?: string;
  /** Directory to write `index.html` into (default `witness-report`). */
  out?: string;
  now?: () => Date;
}

/** Writes the evidence page; returns its path. Reads the repository as committed, runs nothing. */
export async function writeEvidencePage(options: ReportOptions = {}): Promise<string> {
  const cwd = options.cwd ?? process.cwd();
  const { ctx, adrs } = await loadGateContext(cwd);
  const rows = [];
  for (const adr of adrs) rows.push(await judgeAdr(adr, ctx));
  // The table is witness's own: outside its repository there is no support matrix.
  const cited = await gateSupportTable({ cwd });
  const support: SupportMatrixCell[] = [];
  if (cited !== null) {
    for (const [backend, row] of Object.entries(AMBIENT_SUPPORT)) {
      for (const [value, cell] of Object.entries(row)) {
        const path = "record" in cell && cell.record !== undefined ? cell.record : null;
        const check = cited.find((c) => c.cell.startsWith(`ambient ${backend}/${value}`));
        const found = path === null ? undefined : ctx.records.find((r) => r.path === path);
        support.push({
          backend,
          value,
          verdict: cell.verdict,
          record: path === null ? null : { path, version: found?.record.cli.version ?? null },
          ok: check?.ok ?? null,
          note: check?.note ?? ("why" in cell ? cell.why : cell.evidence),
        });
      }
    }
  }
  const records = [...ctx.records].sort((a, b) => a.path.localeCompare(b.path));
  const sameLock = await reexpressedHashes({ cwd });
  const drift = driftTables(
    records.map((r) => r.record),
    sameLock,
  ).filter((t) => t.versions.length > 1);
  const matrices = buildMatrices(
    records.map((r) => ({ file: r.path, record: r.record })),
    sameLock,
  );
  const flips = matrices.flatMap((m) =>
    m.releases.flatMap((r) => r.flips.map((f) => ({ cli: m.cli, ...f }))),
  );
  const questions = questionsOf(
    chosenRecords(
      records.map((r) => r.record),
      sameLock,
    ),
  );
  const html = renderEvidencePage({
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    adrs: rows,
    support,
    records,
    drift,
    flips,
    questions,
  });
  const out = resolve(cwd, options.out ?? "witness-report");
  await makeDirs(out);
  const file = join(out, "index.html");
  await writeFileAtomic(file, html);
  return file;
}

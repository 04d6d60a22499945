// The gate as JUnit: one case per ADR (and per honoured support-table cell), failed with why.
import type { JunitSuite } from "../core/junit-xml.js";
import type { AdrRow } from "./gate.js";
import type { CitedCell } from "./support-table.js";

/** The gate's rows as one suite: an ADR that fails the gate is a failed case, the rest pass. */
export function gateJunit(rows: readonly AdrRow[], cells: readonly CitedCell[] | null): JunitSuite {
  const cases = rows.map((row) => {
    const lines = [
      ...row.problems,
      ...row.evidence.map((e) => `${e.protocol}: ${e.ok ? "ok" : "FAIL"}: ${e.note}`),
    ];
    return {
      name: (row.adr.title.includes(row.adr.id)
        ? row.adr.title
        : `${row.adr.id} ${row.adr.title}`
      ).trim(),
      classname: "witness.adr",
      file: row.adr.file,
      ...(row.ok
        ? {}
        : {
            failure: {
              message: `${row.adr.file}: ${row.adr.status?.word ?? "no status"} without the evidence it needs`,
              text: lines.join("\n"),
            },
          }),
    };
  });
  for (const cell of cells ?? []) {
    cases.push({
      name: cell.cell,
      classname: "witness.support-table",
      file: cell.record,
      ...(cell.ok ? {} : { failure: { message: cell.note, text: `${cell.cell}: ${cell.note}` } }),
    });
  }
  return { name: "witness adr check", cases };
}

import type { AdrRow } from "./gate.js";

/** A plain-text table of every ADR with its status, requirements and evidence. */
export function renderAdrTable(rows: readonly AdrRow[]): string {
  if (rows.length === 0) return "no ADRs in docs/adr\n";
  const header = ["adr", "status", "requires", "gate", "file", "evidence"];
  const lines = rows.map((row) => {
    const req = row.adr.requires;
    const requires = req === null ? "-" : req.length === 0 ? "none" : req.join(",");
    const evidence = [...row.problems, ...row.evidence.map((e) => `${e.protocol}: ${e.note}`)];
    const gate = row.ok ? (row.gated ? "pass" : "not gated") : "FAIL";
    // Evidence goes last so a long note does not push the other columns out of line.
    return [
      row.adr.id,
      row.adr.status?.word ?? "(none)",
      requires,
      gate,
      row.adr.file,
      evidence.join("; ") || "-",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const fmt = (cols: string[]): string =>
    cols.map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  return `${[header, ...lines].map(fmt).join("\n")}\n`;
}

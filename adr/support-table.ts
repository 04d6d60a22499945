import { access } from "node:fs/promises";
import { join } from "node:path";

import { AMBIENT_SUPPORT } from "../orchestrator/policy/ambient-support.js";
import { evidenceFor, type GateContext, judgeRecord, loadGateContext } from "./gate.js";

/** One honoured cell of the orchestrator's ambient support table, checked against its record. */
export interface CitedCell {
  cell: string;
  record: string;
  ok: boolean;
  note: string;
}

async function checkCited(cell: string, path: string, ctx: GateContext): Promise<CitedCell> {
  const fail = (note: string): CitedCell => ({ cell, record: path, ok: false, note });
  const found = ctx.records.find((r) => r.path === path);
  if (found === undefined) {
    const rejected = ctx.rejected.find((r) => r.path === path);
    if (rejected !== undefined) return fail(`cites ${path}, which is ${rejected.problem}`);
    if (ctx.uncommitted.includes(path)) return fail(`cites ${path}, which is not committed`);
    return fail(`cites ${path}, which is not a measurement record`);
  }
  const evidence = await evidenceFor(found.record.protocol.id, ctx);
  if (
    evidence.lockHash !== null &&
    !evidence.counting.includes(found.record.protocol.canonicalHash)
  ) {
    return fail(`cites a record of protocol ${found.record.protocol.id} before its current lock`);
  }
  if (!evidence.ok) return fail(evidence.note);
  // The protocol has a confirming record; the cited one must be one as well, recomputed.
  const check = await ctx.history.check(evidence.file ?? "");
  const judged = await judgeRecord(found, check, ctx);
  if (judged.problem !== null) return fail(judged.problem);
  if (judged.verdict !== "confirmed") return fail(`cites a ${judged.verdict ?? "rejected"} record`);
  return { cell, record: path, ok: true, note: `confirmed by ${path}` };
}

/** The table's source, relative to a repository root: present only in witness's own repository. */
export const SUPPORT_TABLE_SOURCE = join("orchestrator", "policy", "ambient-support.ts");

/**
 * Every honoured cell of the orchestrator's support table must cite a record the gate accepts,
 * and so must every refused cell that cites one.
 * Null outside witness's own repository, whose records the table cites.
 */
export async function gateSupportTable(
  options: { cwd?: string } = {},
): Promise<CitedCell[] | null> {
  const { ctx } = await loadGateContext(options.cwd ?? process.cwd());
  try {
    await access(join(ctx.root, SUPPORT_TABLE_SOURCE));
  } catch {
    return null;
  }
  const cells: CitedCell[] = [];
  for (const [backend, row] of Object.entries(AMBIENT_SUPPORT)) {
    for (const [value, cell] of Object.entries(row)) {
      // A refusal needs no record; one that cites a record must cite one the gate accepts.
      if (cell.verdict === "refused" && cell.record !== undefined) {
        cells.push(await checkCited(`ambient ${backend}/${value} (refused)`, cell.record, ctx));
        continue;
      }
      if (cell.verdict !== "honoured") continue;
      const name = `ambient ${backend}/${value}`;
      // Tolerate a table that allows a missing record: an honoured cell without one fails.
      const record = (cell as { record?: string | null }).record ?? null;
      cells.push(
        record === null
          ? { cell: name, record: "-", ok: false, note: "honoured without a record" }
          : await checkCited(name, record, ctx),
      );
    }
  }
  return cells;
}

/** A plain-text table of the cited cells. */
export function renderCitedCells(cells: readonly CitedCell[]): string {
  if (cells.length === 0) return "no honoured support-table cells\n";
  const width = Math.max(...cells.map((c) => c.cell.length));
  return `${cells.map((c) => `${c.cell.padEnd(width)}  ${c.ok ? "pass" : "FAIL"}  ${c.note}`).join("\n")}\n`;
}

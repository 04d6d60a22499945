// Per required protocol, every CLI version with a confirming record of its current lock: what
// `witness adr status` prints as "holds on 2.1.282, 2.1.332".
import { compareVersions } from "../core/version-order.js";
import { type AdrRow, type GateContext, judgeRecord } from "./gate.js";

/** One required protocol and the versions its current lock is confirmed on. */
export interface VersionsHeld {
  protocol: string;
  cli: string;
  versions: string[];
}

/** The versions each row's required protocols hold on (records the gate would accept). */
export async function versionsHeld(
  rows: readonly AdrRow[],
  ctx: GateContext,
): Promise<Map<string, VersionsHeld>> {
  const out = new Map<string, VersionsHeld>();
  for (const e of rows.flatMap((r) => r.evidence)) {
    if (e.lockHash === null || e.file === undefined || out.has(e.protocol)) continue;
    const check = await ctx.history.check(e.file);
    const confirming = ctx.records.filter(
      (r) =>
        r.record.protocol.id === e.protocol && e.counting.includes(r.record.protocol.canonicalHash),
    );
    const versions = new Set<string>();
    let cli = "";
    for (const r of confirming) {
      // The gate's own judgement: the verdict recomputed from the spawns, and the provenance.
      const judged = await judgeRecord(r, check, ctx);
      if (judged.verdict !== "confirmed" || judged.problem !== null) continue;
      versions.add(r.record.cli.version);
      cli = r.record.cli.name;
    }
    out.set(e.protocol, {
      protocol: e.protocol,
      cli,
      versions: [...versions].sort(compareVersions),
    });
  }
  return out;
}

/** One line per required protocol: `0001 holds on claude-code 2.1.282, 2.1.332`. */
export function renderVersionsHeld(held: ReadonlyMap<string, VersionsHeld>): string {
  const lines = [...held.values()]
    .sort((a, b) => a.protocol.localeCompare(b.protocol))
    .map((h) =>
      h.versions.length === 0
        ? `${h.protocol} holds on no version yet`
        : `${h.protocol} holds on ${h.cli} ${h.versions.join(", ")}`,
    );
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

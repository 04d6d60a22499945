// Per required protocol, every CLI version with a confirming record of its current lock: what
// `witness adr status` prints as "holds on 2.1.282, 2.1.332".
import { compareVersions } from "../core/version-order.js";
import { type AdrRow, type GateContext, provenanceProblem } from "./gate.js";

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
    if (e.lockHash === null || out.has(e.protocol)) continue;
    const confirming = ctx.records.filter(
      (r) =>
        r.record.protocol.id === e.protocol &&
        r.record.protocol.canonicalHash === e.lockHash &&
        r.record.verdict === "confirmed",
    );
    const versions = new Set<string>();
    let cli = "";
    for (const r of confirming) {
      if ((await provenanceProblem(r, ctx)) !== null) continue;
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

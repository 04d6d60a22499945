// The protocols that gate a decision outside docs/adr (`decision: {external: …}`) or none
// (`decision: {none: …}`): no ADR requires them, so `witness adr status` lists them on their own.
import { relative } from "node:path";

import type { Decision } from "../prereg/decision.js";
import { gatesText } from "../prereg/decision.js";
import type { GateContext } from "./gate.js";

/** One protocol gating a decision that is not a witness ADR. */
export interface OtherDecision {
  protocol: string;
  /** The protocol file, repository-relative. */
  file: string;
  decision: Decision;
  /** The same as one phrase: `the external decision <x>`, `no decision (<reason>)`. */
  gates: string;
}

/** Every valid protocol of the repository that states `decision` instead of `adr`, by id. */
export async function otherDecisions(ctx: GateContext): Promise<OtherDecision[]> {
  const out: OtherDecision[] = [];
  for (const file of ctx.protocols) {
    // An invalid protocol is reported where an ADR requires it; here it gates nothing.
    const check = await ctx.history.check(file).catch(() => null);
    const protocol = check?.loaded.protocol;
    if (protocol?.decision === undefined) continue;
    out.push({
      protocol: protocol.id,
      file: relative(ctx.root, file),
      decision: protocol.decision,
      gates: gatesText(protocol),
    });
  }
  return out;
}

/** The lines `witness adr status` prints for them (empty when there are none). */
export function renderOtherDecisions(rows: readonly OtherDecision[]): string {
  return rows.map((r) => `  ${r.protocol} ${r.file}: gates ${r.gates}\n`).join("");
}

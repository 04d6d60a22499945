import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";
import { CheckFailedError, UsageError } from "../core/errors.js";
import { type AdrRow, judgeAdr, loadGateContext } from "./gate.js";
import { withStatus } from "./parse-adr.js";

/** Flips an ADR from Proposed to Accepted, only when the gate would let Accepted pass. */
export async function promoteAdr(id: string, options: { cwd?: string } = {}): Promise<AdrRow> {
  const { ctx, adrs } = await loadGateContext(options.cwd ?? process.cwd());
  const wanted = /^\d{1,4}$/.test(id) ? id.padStart(4, "0") : id;
  const adr = adrs.find((a) => a.id === wanted);
  if (adr === undefined) throw new UsageError(`no ADR ${id} in docs/adr`);
  if (adr.status === null) throw new UsageError(`${adr.file}: no status line to promote`);
  if (adr.status.value !== "proposed") {
    throw new UsageError(
      `${adr.file}: status is ${adr.status.word}; only a Proposed ADR can be promoted`,
    );
  }
  const row = await judgeAdr(adr, ctx, "accepted");
  if (!row.ok) {
    const why = [
      ...row.problems,
      ...row.evidence.filter((e) => !e.ok).map((e) => `${e.protocol}: ${e.note}`),
    ];
    throw new CheckFailedError(
      `${adr.file}: the evidence does not hold, status left Proposed:\n  ${why.join("\n  ")}`,
    );
  }
  const path = join(ctx.root, adr.file);
  await writeFileAtomic(path, withStatus(await readFile(path, "utf8"), adr.status, "accepted"));
  return row;
}

import type { CommandModule } from "yargs";

import { CheckFailedError } from "../../core/errors.js";
import { handled } from "../exit.js";

interface PromoteArgs {
  id: string;
}

async function printGate() {
  const { gateRepository } = await import("../../adr/gate.js");
  const { renderAdrTable } = await import("../../adr/render-table.js");
  const { gateSupportTable, renderCitedCells, SUPPORT_TABLE_SOURCE } =
    await import("../../adr/support-table.js");
  const { rows, rejected } = await gateRepository();
  // Not evidence, and not fatal: each is named, and counts for no ADR.
  for (const r of rejected)
    process.stderr.write(`witness: ${r.path}: ${r.problem} (not evidence)\n`);
  const cells = await gateSupportTable();
  process.stdout.write(renderAdrTable(rows));
  if (cells !== null) {
    process.stdout.write(
      `\nhonoured cells of ${SUPPORT_TABLE_SOURCE}:\n${renderCitedCells(cells)}`,
    );
  }
  return { rows, cells };
}

const checkCommand: CommandModule = {
  command: "check",
  describe: "Fail (exit 1) when an Accepted ADR lacks a confirming record for a required protocol",
  handler: handled(async () => {
    const { rows, cells } = await printGate();
    const failed = [
      ...rows.filter((r) => !r.ok).map((r) => r.adr.file),
      ...(cells ?? []).filter((c) => !c.ok).map((c) => c.cell),
    ];
    if (failed.length > 0) throw new CheckFailedError(`adr check failed for ${failed.join(", ")}`);
  }),
};

const statusCommand: CommandModule = {
  command: "status",
  describe: "Print every ADR with its status and evidence, and the versions each protocol holds on",
  handler: handled(async () => {
    const { rows } = await printGate();
    const { loadGateContext } = await import("../../adr/gate.js");
    const { renderVersionsHeld, versionsHeld } = await import("../../adr/versions-held.js");
    const { ctx } = await loadGateContext(process.cwd());
    const held = renderVersionsHeld(await versionsHeld(rows, ctx));
    if (held !== "") process.stdout.write(`\nversions with a confirming record:\n${held}`);
  }),
};

const promoteCommand: CommandModule<object, PromoteArgs> = {
  command: "promote <id>",
  describe: "Flip an ADR from Proposed to Accepted, only when its evidence holds",
  builder: (y) =>
    y.positional("id", {
      type: "string",
      demandOption: true,
      describe: "ADR id, e.g. 0001",
    }),
  handler: handled(async (args: PromoteArgs) => {
    const { promoteAdr } = await import("../../adr/promote.js");
    const row = await promoteAdr(String(args.id));
    process.stdout.write(
      `${row.adr.file}: Accepted (${row.evidence.map((e) => e.note).join("; ") || "requires no protocol"})\n`,
    );
  }),
};

/** `witness adr check | status | promote <id>`: the evidence gate over docs/adr. */
export const adrCommand: CommandModule = {
  command: "adr <command>",
  describe: "Gate the project's ADRs on their measurement records",
  builder: (y) =>
    y
      .command(checkCommand)
      .command(statusCommand)
      .command(promoteCommand as CommandModule)
      .demandCommand(1, "Name an adr command: check, status or promote."),
  handler: () => undefined,
};

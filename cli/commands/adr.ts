import type { CommandModule } from "yargs";

import type { AdrRow } from "../../adr/gate.js";
import type { CitedCell } from "../../adr/support-table.js";
import { CheckFailedError } from "../../core/errors.js";
import { detectCi, renderAnnotation } from "../ci-annotations.js";
import { printJson, withCache, withJson } from "../common-options.js";
import { handled } from "../exit.js";
import { GROUP_NEEDS_COMMAND } from "../parse-errors.js";

interface GateArgs {
  json: boolean;
  junit?: string;
  reproduce?: boolean;
  only?: string[];
  cache?: string;
}
interface PromoteArgs {
  id: string;
  json: boolean;
}

interface Gate {
  rows: AdrRow[];
  cells: CitedCell[] | null;
  ok: boolean;
}

async function gate(): Promise<Gate> {
  const { gateRepository } = await import("../../adr/gate.js");
  const { gateSupportTable } = await import("../../adr/support-table.js");
  const { runLedgerPath } = await import("../../measurements/run-ledger.js");
  // This machine's ledger: an amendment saying no records existed is checked against it too.
  const { rows, rejected } = await gateRepository({ ledger: runLedgerPath() });
  // Not evidence, and not fatal: each is named, and counts for no ADR.
  for (const r of rejected)
    process.stderr.write(`witness: ${r.path}: ${r.problem} (not evidence)\n`);
  const cells = await gateSupportTable();
  const ok = rows.every((r) => r.ok) && (cells ?? []).every((c) => c.ok);
  return { rows, cells, ok };
}

async function print(g: Gate, json: boolean): Promise<void> {
  if (json) {
    printJson({ ok: g.ok, adrs: g.rows, supportTable: g.cells });
    return;
  }
  const { renderAdrTable } = await import("../../adr/render-table.js");
  const { renderCitedCells, SUPPORT_TABLE_SOURCE } = await import("../../adr/support-table.js");
  process.stdout.write(renderAdrTable(g.rows));
  if (g.cells !== null)
    process.stdout.write(
      `\nhonoured cells of ${SUPPORT_TABLE_SOURCE}:\n${renderCitedCells(g.cells)}`,
    );
}

// Every protocol the Accepted ADRs require, run again; a line each says whether it reproduced.
async function reproduce(g: Gate, args: GateArgs) {
  const { reproduceRequired } = await import("../../adr/reproduce.js");
  const { reproductionLine } = await import("../run-output.js");
  const done = await reproduceRequired(g.rows, {
    cwd: process.cwd(),
    ...(args.cache === undefined ? {} : { cacheDir: args.cache }),
    ...(args.only === undefined ? {} : { only: args.only.map((id) => id.padStart(4, "0")) }),
  });
  const out = args.json ? process.stderr : process.stdout;
  for (const r of done)
    out.write(`reproduce ${r.protocol} on ${r.cli || "?"}: ${reproductionLine(r.reproduction)}\n`);
  return done;
}

// Under --json stdout holds the document alone; the CI reads annotations from stderr as well.
function annotate(g: Gate, json: boolean): void {
  const ci = detectCi(process.env);
  if (ci === null) return;
  const write = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  for (const row of g.rows.filter((r) => !r.ok)) {
    write(
      renderAnnotation(ci, {
        level: "error",
        file: row.adr.file,
        ...(row.adr.status === null ? {} : { line: row.adr.status.line + 1 }),
        title: `ADR ${row.adr.id} fails the evidence gate`,
        message: [
          ...row.problems,
          ...row.evidence.filter((e) => !e.ok).map((e) => `${e.protocol}: ${e.note}`),
        ].join("\n"),
      }),
    );
  }
  for (const cell of (g.cells ?? []).filter((c) => !c.ok))
    write(
      renderAnnotation(ci, {
        level: "error",
        file: "orchestrator/policy/ambient-support.ts",
        title: `${cell.cell} is honoured without evidence`,
        message: cell.note,
      }),
    );
}

const checkCommand: CommandModule<object, GateArgs> = {
  command: "check",
  describe: "Fail (exit 1) when an Accepted ADR lacks a confirming record for a required protocol",
  builder: (y) =>
    withCache(withJson(y, "{ok, adrs, supportTable, reproduced}"))
      .option("junit", {
        type: "string",
        describe: "also write a JUnit XML report there: one case per ADR, the failures with why",
      })
      .option("reproduce", {
        type: "boolean",
        describe:
          "also run every protocol an Accepted ADR requires, on its registered version, and pass only when each reproduces the verdicts of its committed record (records go to a temporary directory)",
      })
      .option("only", {
        type: "string",
        array: true,
        describe: "with --reproduce: only these required protocol ids (a quicker, partial check)",
      }),
  handler: handled(async (args: GateArgs) => {
    const { checkOutputFile, writeOutputFile } = await import("../../core/output-file.js");
    const junit = args.junit === undefined ? null : await checkOutputFile(args.junit, "--junit");
    const g = await gate();
    if (!args.json) await print(g, false);
    const reproduced = args.reproduce === true ? await reproduce(g, args) : null;
    if (args.json) {
      const ok = g.ok && (reproduced ?? []).every((r) => r.ok);
      printJson({
        ok,
        adrs: g.rows,
        supportTable: g.cells,
        ...(reproduced === null ? {} : { reproduced }),
      });
    }
    annotate(g, args.json);
    if (junit !== null) {
      const { renderJunit } = await import("../../core/junit-xml.js");
      const { gateJunit } = await import("../../adr/junit.js");
      await writeOutputFile(junit, renderJunit("witness adr check", [gateJunit(g.rows, g.cells)]));
    }
    const unreproduced = (reproduced ?? [])
      .filter((r) => !r.ok)
      .map((r) => `protocol ${r.protocol}`);
    if (!g.ok || unreproduced.length > 0) {
      const failed = [
        ...g.rows.filter((r) => !r.ok).map((r) => r.adr.file),
        ...(g.cells ?? []).filter((c) => !c.ok).map((c) => c.cell),
        ...unreproduced,
      ];
      throw new CheckFailedError(`adr check failed for ${failed.join(", ")}`);
    }
  }),
};

const statusCommand: CommandModule<object, GateArgs> = {
  command: "status",
  describe: "Print every ADR with its status and evidence, and the versions each protocol holds on",
  builder: (y) => withJson(y, "{ok, adrs, supportTable, versionsHeld, otherDecisions}"),
  handler: handled(async (args: GateArgs) => {
    const g = await gate();
    const { loadGateContext } = await import("../../adr/gate.js");
    const { renderVersionsHeld, versionsHeld } = await import("../../adr/versions-held.js");
    const { otherDecisions, renderOtherDecisions } = await import("../../adr/other-decisions.js");
    const { ctx } = await loadGateContext(process.cwd());
    const held = await versionsHeld(g.rows, ctx);
    const others = await otherDecisions(ctx);
    if (args.json) {
      printJson({
        ok: g.ok,
        adrs: g.rows,
        supportTable: g.cells,
        versionsHeld: [...held.values()],
        otherDecisions: others,
      });
      return;
    }
    await print(g, false);
    if (others.length > 0)
      process.stdout.write(
        `\nprotocols gating a decision outside docs/adr:\n${renderOtherDecisions(others)}`,
      );
    const text = renderVersionsHeld(held);
    if (text !== "")
      process.stdout.write(`
versions with a confirming record:
${text}`);
  }),
};

const promoteCommand: CommandModule<object, PromoteArgs> = {
  command: "promote <id>",
  describe: "Flip an ADR from Proposed to Accepted, only when its evidence holds",
  builder: (y) =>
    withJson(
      y.positional("id", {
        type: "string",
        demandOption: true,
        describe: "ADR id, e.g. 0001",
      }),
      "the promoted ADR and its evidence",
    ),
  handler: handled(async (args: PromoteArgs) => {
    const { promoteAdr } = await import("../../adr/promote.js");
    const row = await promoteAdr(String(args.id));
    if (args.json) {
      printJson(row);
      return;
    }
    process.stdout.write(
      `${row.adr.file}: Accepted (${row.evidence.map((e) => e.note).join("; ") || "requires no protocol"})\n`,
    );
  }),
};

/** `witness adr check | status | promote <id>`: the evidence gate over docs/adr. */
export const adrCommand: CommandModule = {
  command: "adr",
  describe: "Gate the project's ADRs on their measurement records",
  builder: (y) =>
    y
      .command(checkCommand as CommandModule)
      .command(statusCommand as CommandModule)
      .command(promoteCommand as CommandModule)
      .demandCommand(1, GROUP_NEEDS_COMMAND),
  handler: () => undefined,
};

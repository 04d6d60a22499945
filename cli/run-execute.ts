// `witness run` once its flags are parsed: signals, progress, the output, the exit code.
import { shownPath } from "../core/display-path.js";
import type { RunOutcome, RunProtocolsOptions } from "../measurements/run-protocols.js";
import { type Gate, printJson } from "./common-options.js";
import {
  armLine,
  gateFailures,
  gateLine,
  recordBlock,
  runAnnotations,
  runJson,
  summaryLine,
} from "./run-output.js";

/** Runs the protocols, prints as the terminal or the CI wants, and returns the exit code. */
export async function executeRun(
  options: Omit<RunProtocolsOptions, "signal">,
  output: { json: boolean; junit: string | null; gate: Gate },
): Promise<number> {
  const { runPlanned } = await import("../measurements/run-protocols.js");
  const { runLedgerPath } = await import("../measurements/run-ledger.js");
  const { journalDir } = await import("../measurements/journal.js");
  const { releaseWarmSlot } = await import("../probes/isolation/netns.js");
  const { catchInterrupts } = await import("./interrupts.js");
  // Ctrl-C, a polite kill or a closed terminal abort the spawns: no unfinished record is written,
  // every cell is removed, the journal keeps the spawns that finished.
  const interrupts = catchInterrupts();
  const tty = process.stderr.isTTY;
  const clear = () => {
    if (tty) process.stderr.write("\r\x1b[K");
  };
  const out = (line: string) => {
    clear();
    (output.json ? process.stderr : process.stdout).write(`${line}\n`);
  };
  const cwd = process.cwd();
  const written: string[] = [];
  let journal: string | null = null;
  let outcome: RunOutcome;
  try {
    outcome = await runPlanned({
      ...options,
      ledger: runLedgerPath(options.cacheDir),
      journalDir: journalDir(process.env, options.cacheDir),
      signal: interrupts.signal,
      onJournal: (file) => (journal = file),
      onCellKept: (dir) => process.stderr.write(`kept cell: ${dir}\n`),
      onSkip: out,
      onArm: (arm) => {
        if (!output.json) out(armLine(arm));
      },
      onRecordWritten: (run) => {
        written.push(shownPath(run.written.json, cwd));
      },
      onSpawn: tty
        ? (id, done, total, arm) =>
            process.stderr.write(`\r\x1b[K${id}: ${done}/${total} spawns (${arm})`)
        : undefined,
    }).finally(releaseWarmSlot);
  } catch (error) {
    if (interrupts.signal.aborted) {
      clear();
      process.stderr.write(
        written.length === 0
          ? "witness: interrupted; no record written\n"
          : `witness: interrupted; records written (each with its .md and .csv): ${written.join(", ")}; no unfinished one\n`,
      );
      if (journal !== null) {
        const shown = shownPath(journal, cwd);
        process.stderr.write(
          `witness: the spawns that finished are kept in ${shown}; finish with \`witness run --resume ${shown}\`\n`,
        );
      }
      return interrupts.exitCode();
    }
    throw error;
  } finally {
    clear();
    interrupts.dispose();
  }
  return reportOutcome(outcome, output);
}

/**
 * Prints a finished run (or merge) and returns its exit code: 0 only when it passes the gate
 * (every arm confirmed, or every record reproducing its committed one).
 */
export async function reportOutcome(
  outcome: RunOutcome,
  output: { json: boolean; junit: string | null; gate: Gate },
): Promise<number> {
  const cwd = process.cwd();
  const records = outcome.runs.map((r) => r.record);
  if (outcome.shard !== null) {
    const line = `shard written: ${shownPath(outcome.shard.file, cwd)} (${outcome.shard.spawns} spawns); merge every shard with witness merge`;
    if (output.json) printJson({ shard: outcome.shard, skipped: outcome.skipped });
    else process.stdout.write(`${line}\n`);
    return 0;
  }
  if (output.junit !== null) {
    const { renderJunit } = await import("../core/junit-xml.js");
    const { recordSuites } = await import("../measurements/junit.js");
    const { writeOutputFile } = await import("../core/output-file.js");
    await writeOutputFile(output.junit, renderJunit("witness run", recordSuites(records)));
  }
  const notes = runAnnotations(outcome.runs, process.env, output.gate);
  const failures = gateFailures(outcome.runs, output.gate);
  // What this process's spawns cost, measured (none after a merge).
  const { runAccount, accountLines } = await import("../probes/accounting.js");
  const account = runAccount();
  if (output.json) {
    for (const n of notes) process.stderr.write(`${n}\n`);
    printJson({ ...runJson(outcome.runs, outcome.skipped, output.gate), accounting: account });
  } else {
    const { reuseText } = await import("../measurements/reuse-text.js");
    for (const run of outcome.runs) {
      const reused = reuseText(run.record);
      const lines = [
        ...recordBlock(run, cwd),
        ...(reused === null ? [] : [`  spawn cache: ${reused}`]),
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    const { driftTables, renderDriftMarkdown } = await import("../measurements/drift.js");
    const tables = driftTables(records).filter((t) => t.versions.length > 1);
    if (tables.length > 0) process.stdout.write(`\ndrift:\n\n${renderDriftMarkdown(tables)}`);
    for (const n of notes) process.stdout.write(`${n}\n`);
    if (account !== null) process.stdout.write(`${accountLines(account).join("\n")}\n`);
    process.stdout.write(records.length === 0 ? "nothing to run\n" : `${summaryLine(records)}\n`);
    if (output.gate === "reproduces" && records.length > 0)
      process.stdout.write(`${gateLine(outcome.runs, failures)}\n`);
  }
  return failures.length === 0 ? 0 : 1;
}

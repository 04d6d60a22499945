import type { CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import type { Reproduction } from "../../measurements/committed-record.js";
import { handled } from "../exit.js";

interface RunArgs {
  protocols?: string[];
  all: boolean;
  spawns?: number;
  jobs: number;
  keep: boolean;
  out?: string;
  cache?: string;
  cli?: string[];
}

// Bounded before any work: `--spawns 1e9` would otherwise plan a billion spawns in memory.
function positiveInt(name: string, value: number | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`--${name}: expected a positive integer; got ${String(value)}`);
  if (value > max) throw new UsageError(`--${name}: expected at most ${max}; got ${String(value)}`);
  return value;
}

/** The line after a run that says how it compares with the committed record. */
export function reproductionLine(r: Reproduction): string {
  if (r.kind === "none") return r.why;
  const spawns =
    r.spawns === null
      ? ""
      : ` (spawn counts differ: ${r.spawns.committed} per arm committed, ${r.spawns.now} now)`;
  return `${r.reproduces ? "reproduces the verdicts of" : "DIFFERS from the verdicts of"} the committed ${r.committed}${spawns}`;
}

/** The most spawns `witness run` starts at once. */
const MAX_JOBS = 32;

/** `witness run <protocol>... | --all`: run registered protocols and write their records. */
export const runCommand: CommandModule<object, RunArgs> = {
  command: "run [protocols..]",
  describe: "Run locked protocols through the probe cell and write their records",
  builder: (y) =>
    y
      .positional("protocols", {
        type: "string",
        array: true,
        describe: "docs/prereg/NNNN-slug.yaml files",
      })
      .option("all", {
        type: "boolean",
        default: false,
        describe: "run every protocol in docs/prereg",
      })
      .option("spawns", { type: "number", describe: "spawns per arm (default: the protocol's)" })
      .option("jobs", { type: "number", default: 2, describe: "spawns at once" })
      .option("keep", {
        type: "boolean",
        default: false,
        describe: "keep each spawn's temporary cell",
      })
      .option("out", { type: "string", describe: "records directory (default docs/measurements)" })
      .option("cache", { type: "string", describe: "vendor CLI cache directory" })
      .option("cli", {
        type: "string",
        array: true,
        describe:
          "run this version instead, for that CLI's protocols only (others are skipped); repeat for a version matrix, e.g. --cli claude-code@2.1.282 --cli claude-code@2.1.332",
      }),
  handler: handled(async (args: RunArgs) => {
    const { runProtocols } = await import("../../measurements/run-protocols.js");
    const { shownPath } = await import("../../core/display-path.js");
    const { parseCliRef } = await import("../../probes/contracts/probe-spec.js");
    const { MAX_SPAWNS } = await import("../../prereg/protocol.js");
    const clis = args.cli?.map((text) => parseCliRef(String(text)));
    const spawns = positiveInt("spawns", args.spawns, MAX_SPAWNS);
    const jobs = positiveInt("jobs", args.jobs, MAX_JOBS);
    const controller = new AbortController();
    let signalled = 130;
    // Ctrl-C (and a polite kill) abort the spawns: no record is written, every cell is removed.
    const onSigint = (): void => controller.abort();
    const onSigterm = (): void => {
      signalled = 143;
      controller.abort();
    };
    // `on`, not `once`: execa's exit hook re-raises a signal once no other listener is left.
    process.on("SIGINT", onSigint);
    process.on("SIGTERM", onSigterm);
    const tty = process.stderr.isTTY;
    try {
      const runs = await runProtocols({
        files: args.protocols ?? [],
        all: args.all,
        spawns,
        jobs,
        keep: args.keep,
        onCellKept: (dir) => process.stderr.write(`kept cell: ${dir}\n`),
        out: args.out,
        cacheDir: args.cache,
        clis,
        signal: controller.signal,
        onSkip: (line) => process.stdout.write(`${line}\n`),
        onSpawn: tty
          ? (id, done, total, arm) =>
              process.stderr.write(`\r\x1b[K${id}: ${done}/${total} spawns (${arm})`)
          : undefined,
      });
      if (tty) process.stderr.write("\r\x1b[K");
      const cwd = process.cwd();
      for (const run of runs) {
        const r = run.record;
        process.stdout.write(
          `${r.protocol.id} ${r.protocol.slug} on ${r.cli.name}@${r.cli.version}: ${r.verdict}\n`,
        );
        for (const arm of r.arms)
          process.stdout.write(
            `  ${arm.id}: ${arm.verdict}${arm.verdict === "confirmed" ? "" : ` (${arm.reasons.join("; ")})`}\n`,
          );
        process.stdout.write(
          `  record: ${shownPath(run.written.json, cwd)} (.md, .csv beside it)\n`,
        );
        process.stdout.write(`  ${reproductionLine(run.reproduction)}\n`);
      }
      const { driftTables, renderDriftMarkdown } = await import("../../measurements/drift.js");
      const tables = driftTables(runs.map((run) => run.record)).filter(
        (t) => t.versions.length > 1,
      );
      if (tables.length > 0) process.stdout.write(`\ndrift:\n\n${renderDriftMarkdown(tables)}`);
      return runs.every((run) => run.record.arms.every((a) => a.verdict === "confirmed")) ? 0 : 1;
    } catch (error) {
      if (controller.signal.aborted) {
        if (tty) process.stderr.write("\r\x1b[K");
        process.stderr.write("witness: interrupted; no record written\n");
        return signalled;
      }
      throw error;
    } finally {
      process.removeListener("SIGINT", onSigint);
      process.removeListener("SIGTERM", onSigterm);
    }
  }),
};

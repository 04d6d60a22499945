import type { CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import { printJson, timeoutMs, withCache, withJson, withTimeout } from "../common-options.js";
import { handled } from "../exit.js";

interface WatchArgs {
  cli?: string[];
  since?: string[];
  "dry-run": boolean;
  fresh: boolean;
  timeout?: number;
  spawns?: number;
  jobs: number;
  out?: string;
  cache: string | undefined;
  json: boolean;
}

const asArray = (v: string | string[] | undefined) =>
  v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String);

async function rewriteMatrix(): Promise<void> {
  const { shownPath } = await import("../../core/display-path.js");
  const { repoMatrixFiles, writeMatrixFiles } = await import("../../measurements/matrix-files.js");
  const written = await writeMatrixFiles(await repoMatrixFiles(process.cwd()));
  for (const f of written) process.stderr.write(`wrote ${shownPath(f, process.cwd())}\n`);
}

/** `witness watch`: every shipped protocol on the releases published since each CLI's evidence. */
export const watchCommand: CommandModule<object, WatchArgs> = {
  command: "watch",
  describe:
    "Run each CLI's locked protocols on its newest release since the newest evidence, compare with the version before, bisect any flip",
  builder: (y) =>
    withJson(
      withCache(
        withTimeout(y, "a spawn's time limit, stated in each record (default 60)")
          .option("cli", {
            type: "string",
            array: true,
            describe: "only this CLI (repeatable), e.g. --cli codex",
          })
          .option("since", {
            type: "string",
            array: true,
            describe:
              "watch from this version instead of the newest evidence, e.g. claude-code@2.1.300",
          })
          .option("dry-run", {
            type: "boolean",
            default: false,
            describe:
              "print what would run (one registry query per CLI); nothing installed, run or written",
          })
          .option("fresh", {
            type: "boolean",
            default: false,
            describe:
              "run a protocol even where a record of its lock exists on the version, and spawn everything (no spawn from the spawn cache)",
          })
          .option("spawns", {
            type: "number",
            describe: "spawns per arm (default: the protocol's)",
          })
          .option("jobs", { type: "number", default: 2, describe: "spawns at once" })
          .option("out", {
            type: "string",
            describe: "records directory (default docs/measurements)",
          }),
      ),
      "the watch",
    ),
  handler: handled(async (args: WatchArgs) => {
    const { canonicalCliName, unsupportedCli } = await import("../../clis/names.js");
    const { parseCliRef } = await import("../../probes/contracts/probe-spec.js");
    const { watch } = await import("../../measurements/watch.js");
    const { renderWatch } = await import("../../measurements/watch-render.js");
    const { runLedgerPath } = await import("../../measurements/run-ledger.js");
    const { journalDir } = await import("../../measurements/journal.js");
    const { releaseWarmSlot } = await import("../../probes/isolation/netns.js");
    const { catchInterrupts } = await import("../interrupts.js");
    const clis = asArray(args.cli).map((text) => {
      const name = canonicalCliName(text);
      if (name === null)
        throw new UsageError(`--cli ${JSON.stringify(text)}: ${unsupportedCli(text)}`);
      return name;
    });
    const since = asArray(args.since).map((t) => parseCliRef(t, "--since"));
    const limit = timeoutMs(args.timeout);
    const interrupts = catchInterrupts();
    try {
      const result = await watch({
        ...(clis.length === 0 ? {} : { clis }),
        since,
        dryRun: args["dry-run"],
        fresh: args.fresh,
        ...(limit === undefined ? {} : { timeoutMs: limit }),
        spawns: args.spawns,
        jobs: args.jobs,
        out: args.out,
        cacheDir: args.cache,
        signal: interrupts.signal,
        ...(args["dry-run"]
          ? {}
          : { ledger: runLedgerPath(args.cache), journalDir: journalDir(process.env, args.cache) }),
        onLine: (line) => process.stderr.write(`${line}\n`),
      }).finally(releaseWarmSlot);
      // The matrix pages follow the records the watch wrote into the repository.
      if (!args["dry-run"] && args.out === undefined && result.some((w) => w.status === "watched"))
        await rewriteMatrix();
      if (args.json) printJson(result);
      else process.stdout.write(renderWatch(result));
      const attention = result.some((w) => w.flips.length > 0 || w.status === "could-not-install");
      return attention ? 1 : 0;
    } catch (error) {
      if (interrupts.signal.aborted) return interrupts.exitCode();
      throw error;
    } finally {
      interrupts.dispose();
    }
  }),
};

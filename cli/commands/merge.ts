import type { CommandModule } from "yargs";

import { type Gate, withCache, withGate, withJson } from "../common-options.js";
import { handled } from "../exit.js";

interface MergeArgs {
  shards: string[];
  out?: string;
  cache: string | undefined;
  json: boolean;
  junit?: string;
  gate: Gate;
}

/** `witness merge <dirs…>`: the shards of one run into the records a single run writes. */
export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: "merge <shards..>",
  describe:
    "Merge every shard of one sharded run (witness run --shard i/n) into the records a single run would have written",
  builder: (y) =>
    withJson(
      withCache(
        withGate(y)
          .positional("shards", {
            type: "string",
            array: true,
            demandOption: true,
            default: undefined,
            describe: "the shards' --out directories (or their witness-shard-*.json files)",
          })
          .option("out", {
            type: "string",
            describe: "records directory (default docs/measurements)",
          })
          .option("junit", {
            type: "string",
            describe: "also write a JUnit XML report there: one case per arm",
          }),
      ),
      "the merged run (records, verdicts, counts)",
    ),
  handler: handled(async (args: MergeArgs) => {
    const { checkOutputFile } = await import("../../core/output-file.js");
    const junit = args.junit === undefined ? null : await checkOutputFile(args.junit, "--junit");
    const { mergeShards } = await import("../../measurements/merge.js");
    const { runLedgerPath } = await import("../../measurements/run-ledger.js");
    const { reportOutcome } = await import("../run-execute.js");
    const runs = await mergeShards(args.shards.map(String), {
      ...(args.out === undefined ? {} : { out: args.out }),
      ledger: runLedgerPath(args.cache),
    });
    return reportOutcome(
      { runs, shard: null, skipped: [] },
      {
        json: args.json,
        junit,
        gate: args.gate,
      },
    );
  }),
};

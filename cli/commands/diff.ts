import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface DiffArgs {
  a: string;
  b: string;
  json: boolean;
}

/** `witness diff <a.json> <b.json>`: arm by arm, what changed between two records; exit 1 on a changed verdict. */
export const diffCommand: CommandModule<object, DiffArgs> = {
  command: "diff <a> <b>",
  describe:
    "Show arm by arm what changed between two records of one protocol (e.g. two CLI versions); exit 1 when a verdict changed",
  builder: (y) =>
    y
      .positional("a", {
        type: "string",
        demandOption: true,
        describe: "the earlier record (.json)",
      })
      .positional("b", {
        type: "string",
        demandOption: true,
        describe: "the later record (.json)",
      })
      .option("json", { type: "boolean", default: false, describe: "print the diff as JSON" }),
  handler: handled(async (args: DiffArgs) => {
    const { readRecord } = await import("../../measurements/write-record.js");
    const { compareRecords, renderDiff } = await import("../../measurements/diff.js");
    const diff = compareRecords(await readRecord(args.a), await readRecord(args.b));
    process.stdout.write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : renderDiff(diff));
    return diff.verdictChanged ? 1 : 0;
  }),
};

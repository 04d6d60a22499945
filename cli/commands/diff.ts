import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface DiffArgs {
  a: string;
  b: string;
}

/** `witness diff <a.json> <b.json>`: arm by arm, what changed between two records. */
export const diffCommand: CommandModule<object, DiffArgs> = {
  command: "diff <a> <b>",
  describe: "Show arm by arm what changed between two measurement records (e.g. two CLI versions)",
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
      }),
  handler: handled(async (args: DiffArgs) => {
    const { readRecord } = await import("../../measurements/write-record.js");
    const { diffRecords } = await import("../../measurements/diff.js");
    const a = await readRecord(args.a);
    const b = await readRecord(args.b);
    const out = [
      `${a.protocol.id} ${a.cli.name}@${a.cli.version} -> ${b.protocol.id} ${b.cli.name}@${b.cli.version}`,
      `overall: ${a.verdict} -> ${b.verdict}`,
    ];
    if (a.protocol.canonicalHash !== b.protocol.canonicalHash)
      out.push("note: the records ran different versions of the protocol");
    for (const d of diffRecords(a, b)) {
      out.push(
        `${d.changed ? "~" : " "} ${d.arm}: ${d.before === d.after ? d.before : `${d.before} -> ${d.after}`}`,
      );
      for (const p of d.predicates) out.push(`    ${p}`);
    }
    process.stdout.write(`${out.join("\n")}\n`);
  }),
};

import type { CommandModule } from "yargs";

import { printJson, withJson } from "../common-options.js";
import { handled } from "../exit.js";

interface ReportArgs {
  out?: string;
  json: boolean;
}

/** `witness report [--out dir]`: the evidence page, one self-contained HTML file. */
export const reportCommand: CommandModule<object, ReportArgs> = {
  command: "report",
  describe:
    "Write the evidence page: the ADR gate, the support matrix, every record's arms and the drift between versions, as one self-contained HTML file",
  builder: (y) =>
    withJson(
      y.option("out", {
        type: "string",
        describe: "directory to write index.html into (default witness-report)",
      }),
      "{file}",
    ),
  handler: handled(async (args: ReportArgs) => {
    const { writeEvidencePage } = await import("../../adr/report.js");
    const file = await writeEvidencePage(args.out === undefined ? {} : { out: args.out });
    if (args.json) printJson({ file });
    else process.stdout.write(`${file}\n`);
  }),
};

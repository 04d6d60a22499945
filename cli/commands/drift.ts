import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface DriftArgs {
  dir?: string;
  json: boolean;
}

/** `witness drift`: protocol × arm × CLI version → verdict, from the records on disk. */
export const driftCommand: CommandModule<object, DriftArgs> = {
  command: "drift",
  describe: "Print the protocol × arm × CLI version verdict table from the records on disk",
  builder: (y) =>
    y
      .option("dir", { type: "string", describe: "records directory (default docs/measurements)" })
      .option("json", { type: "boolean", default: false, describe: "print the tables as JSON" }),
  handler: handled(async (args: DriftArgs) => {
    const path = await import("node:path");
    const { DOCS } = await import("../../core/doc-paths.js");
    const { repoRoot } = await import("../../core/git.js");
    const { driftTables, readRecordsIn, renderDriftMarkdown } =
      await import("../../measurements/drift.js");
    const dir =
      args.dir === undefined
        ? path.join(await repoRoot(process.cwd()), DOCS.measurements)
        : path.resolve(args.dir);
    const { reexpressedHashes } = await import("../../prereg/verify.js");
    const tables = driftTables(await readRecordsIn(dir), await reexpressedHashes());
    process.stdout.write(
      args.json ? `${JSON.stringify(tables, null, 2)}\n` : renderDriftMarkdown(tables),
    );
  }),
};

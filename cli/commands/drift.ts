import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface DriftArgs {
  dir?: string;
  json: boolean;
  surface: boolean;
}

/** `witness drift`: protocol × arm × CLI version → verdict, from the records on disk. */
export const driftCommand: CommandModule<object, DriftArgs> = {
  command: "drift",
  describe: "Print the protocol × arm × CLI version verdict table from the records on disk",
  builder: (y) =>
    y
      .option("dir", { type: "string", describe: "records directory (default docs/measurements)" })
      .option("json", { type: "boolean", default: false, describe: "print the tables as JSON" })
      .option("surface", {
        type: "boolean",
        default: false,
        describe:
          "print instead what changed besides verdicts: tools offered, helper calls, side requests and (traced arms) files read, per arm across versions",
      }),
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
    if (args.surface) {
      const { chosenRecords } = await import("../../measurements/drift.js");
      const { renderSurfaceMarkdown, surfaceChanges } =
        await import("../../measurements/surface.js");
      const changes = surfaceChanges(
        chosenRecords(await readRecordsIn(dir), await reexpressedHashes()),
      );
      process.stdout.write(
        args.json ? `${JSON.stringify(changes, null, 2)}\n` : renderSurfaceMarkdown(changes),
      );
      return;
    }
    const tables = driftTables(await readRecordsIn(dir), await reexpressedHashes());
    process.stdout.write(
      args.json ? `${JSON.stringify(tables, null, 2)}\n` : renderDriftMarkdown(tables),
    );
  }),
};

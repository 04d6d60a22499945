import type { CommandModule } from "yargs";

import type { CleanReport } from "../../measurements/clean.js";
import { withCache } from "../common-options.js";
import { handled } from "../exit.js";

interface CleanArgs {
  out?: string;
  cache: string | undefined;
  "dry-run": boolean;
}

/** The lines `witness clean` prints: one per directory removed or kept, one per record finished. */
export function renderClean(report: CleanReport, dryRun: boolean): string[] {
  const verb = dryRun ? "would remove" : "removed";
  const lines = report.removed.map(
    (l) =>
      `${verb} ${l.path} (${l.why}${l.killed.length === 0 ? "" : `; killed ${l.killed.length} process(es) still running in it: ${l.killed.join(", ")}`})`,
  );
  for (const l of report.kept) lines.push(`kept ${l.path} (${l.why})`);
  for (const set of report.records?.recovery.completed ?? [])
    lines.push(`finished a record cut off midway: ${set.join(", ")}`);
  for (const part of report.records?.recovery.discarded ?? [])
    lines.push(`removed a partial record file: ${part}`);
  for (const set of report.records?.recovery.kept ?? [])
    lines.push(`left a record set as it is: ${set.manifest} (${set.why})`);
  if (lines.length === 0) lines.push("nothing to clean");
  return lines;
}

/** `witness clean`: remove what a crashed run left (cells, namespace directories, half-written records). */
export const cleanCommand: CommandModule<object, CleanArgs> = {
  command: "clean",
  describe:
    "Remove what a crashed or killed run left: cells and namespace directories in the temp directory, install staging directories in the vendor cache, record files cut off midway",
  builder: (y) =>
    withCache(y)
      .option("out", { type: "string", describe: "records directory (default docs/measurements)" })
      .option("dry-run", { type: "boolean", default: false, describe: "only say what would go" }),
  handler: handled(async (args: CleanArgs) => {
    const { cleanAfterCrash } = await import("../../measurements/clean.js");
    const report = await cleanAfterCrash({
      ...(args.out === undefined ? {} : { out: args.out }),
      ...(args.cache === undefined ? {} : { cacheDir: args.cache }),
      dryRun: args["dry-run"],
    });
    process.stdout.write(`${renderClean(report, args["dry-run"]).join("\n")}\n`);
  }),
};

import type { CommandModule } from "yargs";

import { timeoutMs, withTimeout } from "../common-options.js";
import { handled } from "../exit.js";

interface BisectArgs {
  protocol: string;
  cli: string;
  spawns?: number;
  jobs: number;
  out?: string;
  cache?: string;
  fresh: boolean;
  json: boolean;
  timeout?: number;
}

/** `witness bisect <protocol> --cli name@from..to`: the first published version whose verdicts differ. */
export const bisectCommand: CommandModule<object, BisectArgs> = {
  command: "bisect <protocol>",
  describe:
    "Find the first published CLI version whose verdicts differ from the range's start (binary search; keeps its records)",
  builder: (y) =>
    withTimeout(y, "a spawn's time limit, stated in each record (default 60)")
      .positional("protocol", {
        type: "string",
        demandOption: true,
        describe: "docs/prereg/NNNN-slug.yaml",
      })
      .option("cli", {
        type: "string",
        demandOption: true,
        describe: "the range, e.g. claude-code@2.1.282..2.1.300",
      })
      .option("spawns", { type: "number", describe: "spawns per arm (default: the protocol's)" })
      .option("jobs", { type: "number", default: 2, describe: "spawns at once" })
      .option("out", { type: "string", describe: "records directory (default docs/measurements)" })
      .option("cache", { type: "string", describe: "vendor CLI cache directory" })
      .option("fresh", {
        type: "boolean",
        default: false,
        describe: "spawn everything, taking no spawn from the spawn cache",
      })
      .option("json", { type: "boolean", default: false, describe: "print the result as JSON" }),
  handler: handled(async (args: BisectArgs) => {
    const { parseCliRange } = await import("../../probes/contracts/probe-spec.js");
    const { bisect } = await import("../../measurements/bisect.js");
    const { shownPath } = await import("../../core/display-path.js");
    const { releaseWarmSlot } = await import("../../probes/isolation/netns.js");
    const range = parseCliRange(args.cli);
    const limit = timeoutMs(args.timeout);
    const cwd = process.cwd();
    const result = await bisect({
      file: args.protocol,
      range,
      spawns: args.spawns,
      jobs: args.jobs,
      out: args.out,
      cacheDir: args.cache,
      fresh: args.fresh,
      ...(limit === undefined ? {} : { timeoutMs: limit }),
      onVisit: (version, json, verdict) =>
        process.stderr.write(`${range.name}@${version}: ${verdict} (${shownPath(json, cwd)})\n`),
      onSkip: (version, why) =>
        process.stderr.write(`${range.name}@${version}: skipped, it cannot be run (${why})\n`),
    }).finally(releaseWarmSlot);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return result.flip === null ? 0 : 1;
    }
    const n = result.candidates.length;
    const runs = result.visited.length;
    if (result.flip === null) {
      process.stdout.write(
        `no flip: ${range.name}@${range.from} and @${range.to} have the same verdicts (${n} published versions in range, ${runs} run)\n`,
      );
      return 0;
    }
    const f = result.flip;
    process.stdout.write(
      [
        `flip between ${range.name}@${f.before.version} and ${range.name}@${f.after.version} (${n} published versions in range, ${runs} run${result.skipped.length === 0 ? "" : `, ${result.skipped.length} skipped: ${result.skipped.map((s) => s.version).join(", ")}`})`,
        `  arm ${f.arm}: ${f.verdicts.before} on ${f.before.version} -> ${f.verdicts.after} on ${f.after.version}`,
        `  first differing predicate: ${f.predicate ?? "none (only the verdict differs)"}`,
        `  records: ${shownPath(f.before.record, cwd)}, ${shownPath(f.after.record, cwd)}`,
        "",
      ].join("\n"),
    );
    return 1;
  }),
};

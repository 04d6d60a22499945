import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

interface FlagsArgs {
  protocol: string;
  cli?: string;
  flag?: string[];
  arm?: string[];
  spawns?: number;
  jobs: number;
  cache?: string;
  json: boolean;
}

/** `witness flags <protocol>`: which served flags an arm's verdict follows (nothing is recorded). */
export const flagsCommand: CommandModule<object, FlagsArgs> = {
  command: "flags <protocol>",
  describe:
    "Run each arm as locked and again with each known feature flag cached true and false; report the verdicts that follow a flag (writes no record)",
  builder: (y) =>
    y
      .positional("protocol", {
        type: "string",
        demandOption: true,
        describe: "docs/prereg/NNNN-slug.yaml",
      })
      .option("cli", { type: "string", describe: "another version, e.g. claude-code@2.1.285" })
      .option("flag", {
        type: "string",
        array: true,
        describe: "a flag to flip (repeat; default: the flags the catalog knows for the CLI)",
      })
      .option("arm", { type: "string", array: true, describe: "only this arm (repeat)" })
      .option("spawns", { type: "number", describe: "spawns per arm (default: the protocol's)" })
      .option("jobs", { type: "number", default: 2, describe: "spawns at once" })
      .option("cache", { type: "string", describe: "vendor CLI cache directory" })
      .option("json", { type: "boolean", default: false, describe: "print the result as JSON" }),
  handler: handled(async (args: FlagsArgs) => {
    const { parseCliRef } = await import("../../probes/contracts/probe-spec.js");
    const { renderFlagSweep, sweepFlags } = await import("../../measurements/flags-sweep.js");
    const { releaseWarmSlot } = await import("../../probes/isolation/netns.js");
    const result = await sweepFlags({
      file: args.protocol,
      ...(args.cli === undefined ? {} : { cli: parseCliRef(args.cli) }),
      ...(args.flag === undefined ? {} : { flags: args.flag }),
      ...(args.arm === undefined ? {} : { arms: args.arm }),
      spawns: args.spawns,
      jobs: args.jobs,
      cacheDir: args.cache,
    }).finally(releaseWarmSlot);
    process.stdout.write(
      args.json ? `${JSON.stringify(result, null, 2)}\n` : renderFlagSweep(result),
    );
    return 0;
  }),
};

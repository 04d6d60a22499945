import { availableParallelism } from "node:os";

import type { CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import type { Verdict } from "../../measurements/record.js";
import type { RunProtocolsOptions } from "../../measurements/run-protocols.js";
import {
  type Gate,
  timeoutMs,
  withCache,
  withGate,
  withJson,
  withTimeout,
} from "../common-options.js";
import { handled } from "../exit.js";

export { reproductionLine } from "../run-output.js";

/** The parsed flags of `witness run`. */
export interface RunArgs {
  protocols?: string[];
  all: boolean;
  spawns?: number;
  jobs: number;
  keep: boolean;
  out?: string;
  cache: string | undefined;
  cli?: string[];
  arm?: string[];
  rerun?: string[];
  shard?: string;
  "run-id"?: string;
  "dry-run": boolean;
  json: boolean;
  junit?: string;
  gate: Gate;
  resume?: string;
  fresh: boolean;
  timeout?: number;
}

// Bounded before any work: `--spawns 1e9` would otherwise plan a billion spawns in memory.
function positiveInt(name: string, value: number | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`--${name}: expected a positive integer; got ${String(value)}`);
  if (value > max) throw new UsageError(`--${name}: expected at most ${max}; got ${String(value)}`);
  return value;
}

/** The most spawns `witness run` starts at once. */
const MAX_JOBS = 32;

const asArray = (v: string | string[] | undefined) =>
  v === undefined ? undefined : (Array.isArray(v) ? v : [v]).map(String);

/** Maps the flags to the runner's options (no side effects but parsing; exit 2 on bad values). */
export async function runOptionsFromArgs(
  args: RunArgs,
): Promise<Omit<RunProtocolsOptions, "signal" | "onSpawn" | "onArm" | "onSkip" | "onCellKept">> {
  const { parseCliRef } = await import("../../probes/contracts/probe-spec.js");
  const { MAX_SPAWNS } = await import("../../prereg/protocol.js");
  const { parseShard } = await import("../../measurements/spawn-plan.js");
  const shard = args.shard === undefined ? undefined : parseShard(String(args.shard));
  if (shard !== undefined && args.out === undefined && !args["dry-run"])
    throw new UsageError(
      "--shard writes a partial result, not records: name its directory with --out",
    );
  if (shard !== undefined && args.junit !== undefined)
    throw new UsageError(
      "--junit needs the verdicts, which a shard does not have: pass it to witness merge",
    );
  if (shard !== undefined && args.gate !== "confirmed")
    throw new UsageError(
      "--gate needs the verdicts, which a shard does not have: pass it to witness merge",
    );
  const limit = timeoutMs(args.timeout);
  const runId = args["run-id"];
  if (runId !== undefined && shard === undefined)
    throw new UsageError("--run-id only names the run a --shard belongs to");
  return {
    files: asArray(args.protocols) ?? [],
    all: args.all,
    spawns: positiveInt("spawns", args.spawns, MAX_SPAWNS),
    jobs: positiveInt("jobs", args.jobs, MAX_JOBS),
    keep: args.keep,
    out: args.out,
    cacheDir: args.cache,
    clis: asArray(args.cli)?.map((text) => parseCliRef(text)),
    arms: asArray(args.arm),
    rerun: asArray(args.rerun) as Verdict[] | undefined,
    ...(shard === undefined ? {} : { shard }),
    ...(runId === undefined ? {} : { runId }),
    ...(args.resume === undefined ? {} : { resume: args.resume }),
    ...(args.fresh ? { fresh: true } : {}),
    ...(limit === undefined ? {} : { timeoutMs: limit }),
  };
}

/** `witness run <protocol>... | --all`: run registered protocols and write their records. */
export const runCommand: CommandModule<object, RunArgs> = {
  command: "run [protocols..]",
  describe: "Run locked protocols through the probe cell and write their records",
  builder: (y) =>
    withJson(
      withCache(
        withTimeout(
          withGate(y),
          "a spawn's time limit, stated in each record (default 60; a slow CLI on a loaded machine may need more)",
        )
          .positional("protocols", {
            type: "string",
            array: true,
            default: [],
            defaultDescription: "none; or --all",
            describe: "docs/prereg/NNNN-slug.yaml files",
          })
          .option("all", {
            type: "boolean",
            default: false,
            describe: "run every protocol in docs/prereg",
          })
          .option("spawns", {
            type: "number",
            describe: "spawns per arm (default: the protocol's)",
          })
          .option("jobs", {
            type: "number",
            default: Math.min(availableParallelism(), MAX_JOBS),
            defaultDescription: "the cores this process may use",
            describe: "spawns at once, shared by every protocol of the run",
          })
          .option("keep", {
            type: "boolean",
            default: false,
            describe: "keep each spawn's temporary cell",
          })
          .option("out", {
            type: "string",
            describe: "records directory (default docs/measurements); with --shard, the shard's",
          })
          .option("cli", {
            type: "string",
            array: true,
            describe:
              "run this version instead, for that CLI's protocols only (others are skipped); repeat for a version matrix, e.g. --cli claude-code@2.1.282 --cli claude-code@2.1.332",
          })
          .option("arm", {
            type: "string",
            array: true,
            describe: "only this arm (repeat; 0001/arm-id for one protocol's); a partial record",
          })
          .option("rerun", {
            type: "string",
            array: true,
            choices: ["inconclusive", "refuted"],
            describe:
              "only the arms with that verdict in the newest record of each protocol in --out",
          })
          .option("shard", {
            type: "string",
            describe:
              "run part i of n of the spawns (e.g. 2/3; the same split on every machine) and write a partial result to --out for witness merge",
          })
          .option("run-id", {
            type: "string",
            describe:
              "with --shard: the run the shards belong to (e.g. the CI's run id), checked by merge",
          })
          .option("dry-run", {
            type: "boolean",
            default: false,
            describe:
              "print every arm × spawn with its argv, environment and fixture; spawn nothing",
          })
          .option("resume", {
            type: "string",
            describe:
              "finish the run a journal holds (its record could not be written, or it was interrupted): only the spawns it lacks run",
          })
          .option("fresh", {
            type: "boolean",
            default: false,
            describe:
              "spawn everything: take no spawn from the spawn cache (by default a spawn whose every input is the same as a filed one's is reused, and the record says so)",
          })
          .option("junit", {
            type: "string",
            describe: "also write a JUnit XML report there: one case per arm",
          }),
      ),
      "the run (records, verdicts, counts)",
    ),
  handler: handled(async (args: RunArgs) => {
    const options = await runOptionsFromArgs(args);
    const { checkOutputFile } = await import("../../core/output-file.js");
    const junit = args.junit === undefined ? null : await checkOutputFile(args.junit, "--junit");
    if (args["dry-run"]) {
      const { printDryRun } = await import("../dry-run-output.js");
      return printDryRun(options, args.json);
    }
    const { executeRun } = await import("../run-execute.js");
    return executeRun(options, { json: args.json, junit, gate: args.gate });
  }),
};

import type { CommandModule } from "yargs";

import type { ProbeInput } from "../../probes/probe-input.js";
import { timeoutMs, withCache, withJson, withTimeout } from "../common-options.js";
import { handled } from "../exit.js";

/** The flags of `witness probe`, as yargs hands them over. */
export interface ProbeArgs {
  cli: string;
  fixture?: string;
  script?: string;
  node?: string;
  stdin?: string;
  env?: string[];
  replay?: string;
  call?: number;
  "node-runtime"?: string;
  "accept-loaded-user-config": boolean;
  "trace-files"?: boolean;
  orchestrator: boolean;
  package?: string[];
  "max-spawns"?: number;
  json: boolean;
  keep: boolean;
  /** Seconds. */
  timeout: number | undefined;
  cache: string | undefined;
  "--"?: (string | number)[];
}

/** Maps parsed flags to the probe input (no side effects). */
export function probeInputFromArgs(args: ProbeArgs, cwd = process.cwd()): ProbeInput {
  return {
    cli: args.cli,
    ...(args.fixture === undefined ? {} : { fixture: args.fixture }),
    ...(args.script === undefined ? {} : { script: args.script }),
    ...(args.node === undefined ? {} : { node: args.node }),
    ...(args.stdin === undefined ? {} : { stdin: args.stdin }),
    ...(args.env === undefined ? {} : { env: args.env.map(String) }),
    ...(args["node-runtime"] === undefined ? {} : { nodeRuntime: args["node-runtime"] }),
    acceptLoadedUserConfig: args["accept-loaded-user-config"],
    ...(args["trace-files"] === true ? { traceFiles: true } : {}),
    ...(args.orchestrator ? { orchestrator: true } : {}),
    ...(args.package === undefined ? {} : { packages: args.package }),
    ...(args["max-spawns"] === undefined ? {} : { maxSpawns: args["max-spawns"] }),
    argv: (args["--"] ?? []).map(String),
    timeoutMs: timeoutMs(args.timeout) ?? 60_000,
    cwd,
  };
}

/** `witness probe`: one live spawn of a real CLI against the scripted fake model. */
export const probeCommand: CommandModule<object, ProbeArgs> = {
  command: "probe",
  describe: "Run a real vendor CLI once in a probe cell and print what it loaded, offered and ran",
  builder: (y) =>
    withTimeout(
      withCache(
        withJson(
          y
            .parserConfiguration({ "populate--": true })
            .usage(
              "$0 probe --cli <name@version> [--fixture f] [--script f] (--node f | -- <args> | --orchestrator -- <command…>)",
            )
            .option("cli", {
              type: "string",
              demandOption: true,
              describe: "the CLI version to run, e.g. claude-code@2.1.332",
            })
            .option("fixture", {
              type: "string",
              describe: "fixture file (YAML/JSON): files, layout, trust",
            })
            .option("script", { type: "string", describe: "fake model script (YAML/JSON)" })
            .option("node", {
              type: "string",
              describe: "reference-orchestrator node file to render instead of -- <args>",
            })
            .option("stdin", {
              type: "string",
              describe: "text for the CLI's standard input, e.g. the prompt (with raw arguments)",
            })
            .option("env", {
              type: "string",
              array: true,
              describe: "NAME=value for the CLI's environment (repeatable; the cell's own refused)",
            })
            .option("replay", {
              type: "string",
              describe: "a shim log: replay one recorded call's argv, env and stdin as the probe",
            })
            .option("call", {
              type: "number",
              describe: "with --replay: which call (1-based; default the log's only one)",
            })
            .option("node-runtime", {
              type: "string",
              describe:
                "the Node to run a Node CLI on, e.g. 22.23.5 (default: what its engines.node asks for)",
            })
            .option("accept-loaded-user-config", {
              type: "boolean",
              default: false,
              describe: "render --node as the orchestrator does under that run flag",
            })
            .option("trace-files", {
              type: "boolean",
              default: false,
              describe:
                "trace the files the spawn opens (strace) and report every instruction-like file it read, planted or not",
            })
            .option("orchestrator", {
              type: "boolean",
              default: false,
              describe:
                "the command after -- is an orchestrator that spawns --cli itself (through the shim in $WITNESS_CLI_<NAME>)",
            })
            .option("package", {
              type: "string",
              array: true,
              describe:
                "an npm package the orchestrator imports, e.g. @anthropic-ai/claude-agent-sdk@0.3.332",
            })
            .option("max-spawns", {
              type: "number",
              describe:
                "the most CLI processes the orchestrator may start (default 16, at most 256)",
            })
            .option("keep", { type: "boolean", default: false, describe: "keep the cell on disk" }),
          "the observation",
        ),
      ),
      "how long the CLI may run",
      60,
    ),
  handler: handled(async (args) => {
    const { loadProbeSpec } = await import("../../probes/probe-input.js");
    const { runProbe } = await import("../../probes/run-probe.js");
    const { summarizeObservation } = await import("../../probes/summary.js");
    const { replayedArgs } = await import("../probe-replay.js");
    const spec = await loadProbeSpec(await replayedArgs(probeInputFromArgs(args), args));
    // Managed configuration is judged first, as runProbe does: a refused spawn installs nothing.
    const { checkManaged } = await import("../../probes/run-probe.js");
    await checkManaged(spec.cli.name, spec.fixture.managed ?? "record");
    // A version never published is bad input (exit 2, naming the nearest), not a faulty spawn.
    const { installAll } = await import("../../probes/vendor-registry.js");
    await installAll([spec.cli], {
      ...(args.cache === undefined ? {} : { cacheDir: args.cache }),
      pins: spec.runtime === undefined ? [] : [spec.runtime.node],
    });
    const { releaseWarmSlot } = await import("../../probes/isolation/netns.js");
    const { catchInterrupts } = await import("../interrupts.js");
    // As for `witness run`: a signal ends the CLI and everything it started, and removes the cell.
    const interrupts = catchInterrupts();
    let observation;
    try {
      observation = await runProbe(spec, {
        keep: args.keep,
        ...(args.cache === undefined ? {} : { cacheDir: args.cache }),
        signal: interrupts.signal,
        onCellKept: (dir) => process.stderr.write(`cell kept: ${dir}\n`),
      }).finally(releaseWarmSlot);
    } catch (error) {
      if (!interrupts.signal.aborted) throw error;
      process.stderr.write("witness: interrupted; the CLI and its cell are gone\n");
      return interrupts.exitCode();
    } finally {
      interrupts.dispose();
    }
    process.stdout.write(
      `${args.json ? JSON.stringify(observation, null, 2) : summarizeObservation(observation)}\n`,
    );
    // A fault means the spawn is not evidence: say so in the exit code as well.
    return observation.faults.length > 0 ? 1 : 0;
  }),
};

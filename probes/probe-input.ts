// Building a ProbeSpec from the files and flags `witness probe` is given.
import { resolve } from "node:path";

import { z } from "zod";

import { InputError, UsageError } from "../core/errors.js";
import { readInput } from "../core/read-input.js";
import { fixtureSchema } from "./contracts/fixture.js";
import { parseCliRef, type ProbeSpec, unusedSentinelPlacements } from "./contracts/probe-spec.js";
import { type NodePin, nodePinSchema } from "./contracts/runtime.js";
import { scriptSchema, sentinelNames } from "./contracts/script.js";
import { launchEnvOf } from "./replay-input.js";

/** What the command line says about one probe. */
export interface ProbeInput {
  /** `name@version`. */
  cli: string;
  fixture?: string;
  script?: string;
  /** A reference-orchestrator node file (YAML or JSON). */
  node?: string;
  acceptLoadedUserConfig?: boolean;
  /** Raw arguments after the binary (after `--`). */
  argv?: readonly string[];
  /** Text for the CLI's standard input, with raw arguments (a prompt pi or opencode would mangle). */
  stdin?: string;
  /** An exact Node version to run a Node CLI on (absent: the one its engines.node asks for). */
  nodeRuntime?: string;
  /** `--env NAME=value` flags, set on top of the cell's and the driver's variables. */
  env?: readonly string[];
  timeoutMs?: number;
  cwd?: string;
}

/** Reads the fixture, script and node files named by `input` and assembles the spec. */
export async function loadProbeSpec(input: ProbeInput): Promise<ProbeSpec> {
  const cli = parseCliRef(input.cli);
  const argv = input.argv ?? [];
  if (input.node !== undefined && argv.length > 0) {
    throw new UsageError("give either --node <file> or raw arguments after --, not both");
  }
  if (input.node === undefined && argv.length === 0) {
    throw new UsageError(
      "give the CLI's arguments after -- (e.g. -- -p hello) or a node with --node <file>",
    );
  }
  const at = (file: string) => resolve(input.cwd ?? process.cwd(), file);
  const fixture =
    input.fixture === undefined
      ? fixtureSchema.parse({})
      : await readInput(fixtureSchema, at(input.fixture));
  const script =
    input.script === undefined
      ? scriptSchema.parse({})
      : await readInput(scriptSchema, at(input.script));
  const unused = unusedSentinelPlacements(fixture, script);
  if (input.fixture !== undefined && unused.length > 0) {
    const named = sentinelNames(script).join(", ") || "none";
    throw new InputError(
      at(input.fixture),
      unused.map((name) => ({
        path: `sentinelsIn.${name}`,
        message: `expected a sentinel the script names (${named}); got "${name}"`,
      })),
    );
  }
  if (input.node !== undefined && input.stdin !== undefined) {
    throw new UsageError(
      "--stdin goes with raw arguments; a node's rendering decides its own stdin",
    );
  }
  const launch =
    input.node === undefined
      ? {
          argv: [...argv],
          ...(input.stdin === undefined ? {} : { stdin: input.stdin }),
          ...launchEnvOf(input.env ?? []),
        }
      : {
          node: await readInput(z.record(z.string(), z.unknown()), at(input.node)),
          acceptLoadedUserConfig: input.acceptLoadedUserConfig ?? false,
          ...launchEnvOf(input.env ?? []),
        };
  let runtime: NodePin | undefined;
  if (input.nodeRuntime !== undefined) {
    const pin = nodePinSchema.safeParse({ node: input.nodeRuntime });
    if (!pin.success)
      throw new UsageError(
        `--node-runtime ${JSON.stringify(input.nodeRuntime)}: expected an exact Node version like 22.23.5`,
      );
    runtime = pin.data;
  }
  return {
    cli,
    fixture,
    script,
    launch,
    timeoutMs: input.timeoutMs ?? 60_000,
    ...(runtime === undefined ? {} : { runtime }),
  };
}

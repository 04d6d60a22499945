// Building a ProbeSpec from the files and flags `witness probe` is given.
import { readFile, stat } from "node:fs/promises";
import { basename, resolve } from "node:path";

import { z } from "zod";

import { InputError, UsageError } from "../core/errors.js";
import { readInput } from "../core/read-input.js";
import { fixtureSchema } from "./contracts/fixture.js";
import {
  parseCliRef,
  type ProbeSpec,
  probeSpecSchema,
  unusedSentinelPlacements,
} from "./contracts/probe-spec.js";
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
  /** Trace the files the spawn opens (`--trace-files`). */
  traceFiles?: boolean;
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
  /** The arguments after `--` are an orchestrator's command, which spawns the CLI itself. */
  orchestrator?: boolean;
  /** npm packages the orchestrator imports, `name@exact.version`. */
  packages?: readonly string[];
  maxSpawns?: number;
}

/** Bytes of a file named on an orchestrator's command that is planted in the workspace. */
const PLANTED_BOUND = 1024 * 1024;

/**
 * The orchestrator's command with each argument naming a text file on this machine planted in
 * the workspace under its base name (the cell sees no host file), and those files.
 */
async function plantedCommand(
  command: readonly string[],
  at: (file: string) => string,
): Promise<{ command: string[]; files: { at: "workspace"; path: string; content: string }[] }> {
  const files: { at: "workspace"; path: string; content: string }[] = [];
  const out = [command[0] ?? ""];
  for (const arg of command.slice(1)) {
    const file = at(arg);
    const info = await stat(file).catch(() => null);
    if (info === null || !info.isFile() || info.size > PLANTED_BOUND) {
      out.push(arg);
      continue;
    }
    const text = (await readFile(file)).toString("utf8");
    if (text.includes("\uFFFD") || files.some((f) => f.path === basename(file))) {
      out.push(arg);
      continue;
    }
    files.push({ at: "workspace", path: basename(file), content: text });
    out.push(basename(file));
  }
  return { command: out, files };
}

/** Reads the fixture, script and node files named by `input` and assembles the spec. */
export async function loadProbeSpec(input: ProbeInput): Promise<ProbeSpec> {
  const cli = parseCliRef(input.cli);
  const argv = input.argv ?? [];
  if (input.orchestrator === true && (input.node !== undefined || input.stdin !== undefined))
    throw new UsageError("--orchestrator takes the command after --; not --node or --stdin");
  if (input.orchestrator === true && input.traceFiles === true)
    throw new UsageError(
      "--trace-files traces one CLI spawn; an orchestrator's spawns are not traced yet (leave out --orchestrator or --trace-files)",
    );
  if (input.orchestrator !== true && (input.packages?.length ?? 0) > 0)
    throw new UsageError("--package goes with --orchestrator (the packages its command imports)");
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
  if (input.orchestrator === true) {
    const planted = await plantedCommand(argv, at);
    const orchestrator = {
      command: planted.command,
      clis: [cli.name],
      ...(input.packages === undefined || input.packages.length === 0
        ? {}
        : { packages: [...input.packages] }),
      ...(input.maxSpawns === undefined ? {} : { maxSpawns: input.maxSpawns }),
      ...launchEnvOf(input.env ?? []),
    };
    const spec = probeSpecSchema.safeParse({
      cli,
      fixture: { ...fixture, files: [...fixture.files, ...planted.files] },
      script,
      launch: { orchestrator },
      timeoutMs: input.timeoutMs ?? 60_000,
    });
    if (!spec.success)
      throw new UsageError(
        spec.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"),
      );
    return spec.data;
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
    ...(input.traceFiles === true ? { traceFiles: true } : {}),
  };
}

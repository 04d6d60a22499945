import type { Argv, CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
import type { CallExpectation } from "../../shims/expectation-file.js";
import type { InstallShimsOptions } from "../../shims/install.js";
import type { BehaviourInput, StdinMode } from "../../shims/shim-spec.js";
import { printJson } from "../common-options.js";
import { handled } from "../exit.js";
import { GROUP_NEEDS_COMMAND } from "../parse-errors.js";

/** The parsed flags of `witness shim install`. */
export interface InstallArgs {
  dir: string;
  names: string[];
  log?: string;
  exit?: number;
  stdout?: string;
  stdoutFile?: string;
  stderr?: string;
  stderrFile?: string;
  plan?: string;
  passThrough?: boolean;
  target?: string;
  env?: string[];
  stdin?: StdinMode;
  json?: boolean;
}

/** The behaviour the flags ask for: scripted, a plan file still to read, or pass-through. */
export type BehaviourRequest = { behaviour: BehaviourInput } | { callPlanFile: string };

/** Maps install flags to a behaviour; contradictory flags are a UsageError. Pure, for tests. */
export function behaviourFromArgs(args: InstallArgs): BehaviourRequest {
  const scripted = (
    [
      ["--exit", args.exit],
      ["--stdout", args.stdout],
      ["--stdout-file", args.stdoutFile],
      ["--stderr", args.stderr],
      ["--stderr-file", args.stderrFile],
    ] as const
  )
    .filter(([, v]) => v !== undefined)
    .map(([flag]) => flag);
  if (args.passThrough === true) {
    const clash = [...scripted, ...(args.plan === undefined ? [] : ["--plan"])];
    if (clash.length > 0)
      throw new UsageError(`--pass-through runs the real binary; drop ${clash.join(", ")}`);
    return {
      behaviour:
        args.target === undefined
          ? { kind: "pass-through" }
          : { kind: "pass-through", target: args.target },
    };
  }
  if (args.target !== undefined)
    throw new UsageError("--target only applies with --pass-through; add it or drop --target");
  if (args.plan !== undefined) {
    if (scripted.length > 0)
      throw new UsageError(
        `--plan sets each call's output in the plan file; drop ${scripted.join(", ")}`,
      );
    return { callPlanFile: args.plan };
  }
  if (args.stdout !== undefined && args.stdoutFile !== undefined)
    throw new UsageError("give --stdout or --stdout-file, not both");
  if (args.stderr !== undefined && args.stderrFile !== undefined)
    throw new UsageError("give --stderr or --stderr-file, not both");
  const outcome = {
    ...(args.exit === undefined ? {} : { exitCode: args.exit }),
    ...(args.stdout === undefined ? {} : { stdout: args.stdout }),
    ...(args.stdoutFile === undefined ? {} : { stdoutFile: args.stdoutFile }),
    ...(args.stderr === undefined ? {} : { stderr: args.stderr }),
    ...(args.stderrFile === undefined ? {} : { stderrFile: args.stderrFile }),
  };
  if (
    args.exit !== undefined &&
    (!Number.isInteger(args.exit) || args.exit < 0 || args.exit > 255)
  ) {
    throw new UsageError(`--exit ${args.exit}: expected an integer from 0 to 255`);
  }
  return { behaviour: { kind: "script", outcome } };
}

/** Maps install flags to installer options, minus the behaviour (resolved by the handler). */
export function installOptionsFromArgs(args: InstallArgs): Omit<InstallShimsOptions, "behaviour"> {
  return {
    dir: args.dir,
    names: args.names,
    ...(args.log === undefined ? {} : { log: args.log }),
    ...(args.env === undefined ? {} : { env: args.env }),
    ...(args.stdin === undefined ? {} : { stdin: args.stdin }),
  };
}

const out = (line: string) => process.stdout.write(`${line}\n`);

const install: CommandModule<object, InstallArgs> = {
  command: "install <names..>",
  describe: "Write argv-recording shims named like CLIs (put --dir first on PATH)",
  builder: (y: Argv) =>
    y
      .positional("names", {
        type: "string",
        array: true,
        demandOption: true,
        default: undefined,
        describe: "command names, e.g. claude codex",
      })
      .option("dir", {
        type: "string",
        demandOption: true,
        describe: "directory to write the shims into",
      })
      .option("log", {
        type: "string",
        describe: "JSONL log the shims append to (default <dir>/shims.jsonl)",
      })
      .option("exit", { type: "number", describe: "exit code of every call" })
      .option("stdout", { type: "string", describe: "text every call prints on stdout" })
      .option("stdout-file", {
        type: "string",
        describe: "file whose content every call prints on stdout",
      })
      .option("stderr", { type: "string", describe: "text every call prints on stderr" })
      .option("stderr-file", {
        type: "string",
        describe: "file whose content every call prints on stderr",
      })
      .option("plan", {
        type: "string",
        describe: "YAML/JSON plan: calls: [{exitCode, stdout, ...}, ...]",
      })
      .option("pass-through", {
        type: "boolean",
        describe: "run the real binary found on PATH outside --dir",
      })
      .option("target", { type: "string", describe: "with --pass-through: the real binary to run" })
      .option("env", {
        type: "string",
        describe:
          "a variable to record, * matches anything (repeat the flag; default: adapter variables)",
        coerce: (v: string | string[]) => (Array.isArray(v) ? v : [v]),
      })
      .option("stdin", {
        choices: ["record", "ignore"] as const,
        describe:
          "read stdin for its size and digest (default record: two helper processes, about 2 ms a call more than ignore, see docs/benchmarks.md)",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "print {dir, log, shims} as one JSON document on stdout",
      }),
  handler: handled(async (args) => {
    const request = behaviourFromArgs(args);
    const { installShims } = await import("../../shims/install.js");
    let behaviour: BehaviourInput;
    if ("callPlanFile" in request) {
      const { readCallPlanFile } = await import("../../shims/call-plan-file.js");
      behaviour = await readCallPlanFile(request.callPlanFile);
    } else behaviour = request.behaviour;
    const installed = await installShims({ ...installOptionsFromArgs(args), behaviour });
    process.stderr.write(`witness: put ${installed.dir} first on PATH for the code under test\n`);
    if (args.json === true) {
      printJson(installed);
      return;
    }
    for (const s of installed.shims)
      out(s.target === undefined ? `${s.name}\t${s.file}` : `${s.name}\t${s.file}\t-> ${s.target}`);
    out(`log\t${installed.log}`);
  }),
};

const log: CommandModule<object, { file: string; json: boolean }> = {
  command: "log <file>",
  describe: "Print the calls recorded in a shim log",
  builder: (y) =>
    y
      .positional("file", { type: "string", demandOption: true, describe: "the shim log (JSONL)" })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "print {records, problems} as one JSON document on stdout",
      }),
  handler: handled(async (args) => {
    const { readShimLog } = await import("../../shims/read-log.js");
    const { formatLog } = await import("../../shims/format-log.js");
    const read = await readShimLog(args.file);
    out(
      args.json
        ? JSON.stringify({ records: read.records, problems: read.problems }, null, 2)
        : formatLog(read),
    );
    for (const p of read.problems)
      process.stderr.write(`witness: ${args.file}: line ${p.line}: ${p.message}\n`);
    // The intact records are printed; the damaged lines still make the command fail as bad input.
    return read.problems.length > 0 ? 2 : 0;
  }),
};

/** The parsed flags of `witness shim assert`. */
export interface AssertArgs {
  log: string;
  shim?: string;
  argv?: string;
  cwd?: string;
  env?: string[];
  absent?: string[];
  times?: number;
  plan?: string;
  json: boolean;
  "--"?: (string | number)[];
}

/** The calls `shim assert` checks, from its flags (or the --plan file, read by the handler). */
export async function assertExpectations(args: AssertArgs): Promise<{
  calls: CallExpectation[];
  plansMet: boolean;
}> {
  const { callExpectationSchema, readExpectationFile } =
    await import("../../shims/expectation-file.js");
  const rest = (args["--"] ?? []).map(String);
  const inline =
    args.argv !== undefined ||
    rest.length > 0 ||
    args.cwd !== undefined ||
    args.env !== undefined ||
    args.absent !== undefined ||
    args.times !== undefined;
  if (args.plan !== undefined) {
    if (inline || args.shim !== undefined)
      throw new UsageError(
        "--plan holds every expected call; drop the shim name and the --argv, --cwd, --env, --absent, --times, -- flags",
      );
    return readExpectationFile(args.plan);
  }
  if (args.shim === undefined)
    throw new UsageError("name the shim whose calls to check (e.g. claude), or give --plan <file>");
  if (args.argv !== undefined && rest.length > 0)
    throw new UsageError("give the argv as --argv '<json array>' or after --, not both");
  let argv: unknown = rest.length > 0 ? rest : undefined;
  if (args.argv !== undefined) {
    try {
      argv = JSON.parse(args.argv) as unknown;
    } catch {
      throw new UsageError(
        `--argv ${args.argv}: expected a JSON array, e.g. '["-p", {"contains": "Review"}]'`,
      );
    }
  }
  const env: Record<string, unknown> = {};
  for (const pair of args.env ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--env ${pair}: expected NAME=value`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  for (const name of args.absent ?? []) env[name] = null;
  const parsed = callExpectationSchema.safeParse({
    shim: args.shim,
    ...(argv === undefined ? {} : { argv }),
    ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
    ...(Object.keys(env).length === 0 ? {} : { env }),
    ...(args.times === undefined ? {} : { times: args.times }),
  });
  if (!parsed.success) {
    throw new UsageError(
      `--argv: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  return { calls: [parsed.data], plansMet: false };
}

const assertCommand: CommandModule<object, AssertArgs> = {
  command: "assert <log> [shim]",
  describe:
    "Check a shim log for expected calls (exit 1 with the argv side by side when one is missing): for CI in any language",
  builder: (y: Argv) =>
    y
      .parserConfiguration({ "populate--": true })
      .usage(
        "$0 shim assert <log> <shim> [--argv '<json>' | -- <args…>] [--env N=V] [--absent N] [--times n]\n$0 shim assert <log> --plan <expectations.yaml>",
      )
      .positional("log", { type: "string", demandOption: true, describe: "the shim log (JSONL)" })
      .positional("shim", {
        type: "string",
        describe: "the shim whose calls to check, e.g. claude",
      })
      .option("argv", {
        type: "string",
        describe:
          'the expected argv as a JSON array; an item may be {"contains": s}, {"startsWith": s}, {"matches": regex}, {"anything": true}',
      })
      .option("cwd", { type: "string", describe: "the expected working directory" })
      .option("env", {
        type: "string",
        array: true,
        describe: "an expected variable, NAME=value (repeat)",
      })
      .option("absent", {
        type: "string",
        array: true,
        describe: "a variable that must not have reached the call (repeat)",
      })
      .option("times", {
        type: "number",
        describe: "exactly this many matching calls (default: at least one)",
      })
      .option("plan", {
        type: "string",
        describe:
          "YAML/JSON expectations instead of the flags: calls: [{shim, argv, cwd, env, times}], plansMet",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "print {pass, checks} as one JSON document on stdout",
      }),
  handler: handled(async (args) => {
    const expectations = await assertExpectations(args);
    const { readShimLog } = await import("../../shims/read-log.js");
    const { checkSpawned, unmetPlans } = await import("../../shims/assertions.js");
    const { toSpawnExpectation } = await import("../../shims/expectation-file.js");
    const { readPlanLengths } = await import("../../shims/state-dir.js");
    const path = await import("node:path");
    const read = await readShimLog(args.log);
    for (const p of read.problems)
      process.stderr.write(`witness: ${args.log}: line ${p.line}: ${p.message}\n`);
    if (read.problems.length > 0) return 2;
    const checks = expectations.calls.map((call) => {
      const check = checkSpawned(read.records, call.shim, toSpawnExpectation(call));
      return { shim: call.shim, pass: check.pass, message: check.message };
    });
    if (expectations.plansMet) {
      const unmet = unmetPlans(read.records, readPlanLengths(path.dirname(args.log)));
      checks.push({
        shim: "(plans)",
        pass: unmet.length === 0,
        message:
          unmet.length === 0
            ? "every planned call arrived"
            : `unmet plan:\n  ${unmet.join("\n  ")}`,
      });
    }
    const pass = checks.every((c) => c.pass);
    if (args.json) printJson({ pass, checks });
    else for (const c of checks.filter((x) => !x.pass)) out(c.message);
    return pass ? 0 : 1;
  }),
};

/** `witness shim install|log|assert`: argv-recording PATH shims and their log. */
export const shimCommand: CommandModule = {
  command: "shim",
  describe: "Install argv-recording PATH shims, read what they recorded, assert on it",
  builder: (y) =>
    y
      .command(install)
      .command(log)
      .command(assertCommand as CommandModule)
      .demandCommand(1, GROUP_NEEDS_COMMAND),
  handler: () => undefined,
};

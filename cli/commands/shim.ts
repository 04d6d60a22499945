import type { Argv, CommandModule } from "yargs";

import { UsageError } from "../../core/errors.js";
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
        describe: "read stdin for its size and digest (default record)",
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

/** `witness shim install|log`: argv-recording PATH shims and their log. */
export const shimCommand: CommandModule = {
  command: "shim",
  describe: "Install argv-recording PATH shims and read what they recorded",
  builder: (y) => y.command(install).command(log).demandCommand(1, GROUP_NEEDS_COMMAND),
  handler: () => undefined,
};

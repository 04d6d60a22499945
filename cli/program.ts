// The witness command's yargs set-up, as a function of its arguments: main.ts runs it on the
// process's own, and tests run it in process on theirs.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import yargs, { type Argv } from "yargs";

import { commands } from "./commands/index.js";
import { GROUP_NEEDS_COMMAND, unknownOption, unknownOptionMessage } from "./parse-errors.js";

/** Where a parse failure goes: its lines, then the exit (2). */
export interface FailureIo {
  stderr: (line: string) => void;
  exit: (code: number) => never;
}

const processIo: FailureIo = {
  stderr: (line) => process.stderr.write(`${line}\n`),
  exit: (code) => process.exit(code),
};

// yargs renders the matched command's whole help text right after starting its handler, for a
// later failure to show (about 25 ms of CPU before the first spawn); .fail below never shows it,
// and `--help` renders its own.
function skipHelpCache(instance: object): void {
  const internal = instance as { getInternalMethods?: () => { getUsageInstance?: () => unknown } };
  const usage = internal.getInternalMethods?.().getUsageInstance?.() as
    { cacheHelpMessage?: () => void } | undefined;
  if (typeof usage?.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
}

// witness's own package.json, two levels above dist/cli/main.js (yargs' guess looks above its
// node_modules folder, and inside the bundle it has none, so it would read the cwd's package).
function ownVersion(): string {
  try {
    const pkg: unknown = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8"),
    );
    const version = (pkg as { version?: unknown }).version;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

/** The `witness` command over `args` (the arguments after the script's name), ready to parse. */
export function witnessProgram(args: readonly string[], io: FailureIo = processIo): Argv {
  const cli = yargs([...args])
    .scriptName("witness")
    .usage(
      "$0 <command>\n\nMeasure what AI coding-agent CLIs really do with an argv, an environment and the files on disk.",
    )
    .command(commands)
    .demandCommand(1, GROUP_NEEDS_COMMAND)
    .strict()
    .recommendCommands()
    .help()
    .version(ownVersion())
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error, usage) => {
      if (error) throw error;
      // At run time the third argument is yargs' usage of the command that failed, not an Argv.
      const context = usage as unknown as {
        getDescriptions(): Record<string, unknown>;
        showHelp(print: (text: string) => void): void;
      };
      const say = io.stderr;
      const unknown = unknownOption(args, Object.keys(context.getDescriptions()));
      if (unknown !== null) say(`witness: ${unknownOptionMessage(unknown)}`);
      else if (message === GROUP_NEEDS_COMMAND) {
        // A bare command group (`witness vendors`) shows its own subcommands, not the top list.
        context.showHelp(say);
      } else say(`witness: ${message}`);
      if (unknown !== null || message !== GROUP_NEEDS_COMMAND)
        say("Run `witness <command> --help` for usage.");
      io.exit(2);
    });
  skipHelpCache(cli);
  return cli;
}

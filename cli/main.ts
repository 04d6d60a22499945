#!/usr/bin/env node
import yargs from "yargs";
import { hideBin } from "yargs/helpers";

import { commands } from "./commands/index.js";

// A reader that closes early (`witness adr check | head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

const cli = yargs(hideBin(process.argv))
  .scriptName("witness")
  .usage(
    "$0 <command>\n\nMeasure what AI coding-agent CLIs really do with an argv, an environment and the files on disk.",
  )
  .command(commands)
  .demandCommand(1, "Name a command; `witness --help` lists them.")
  .strict()
  .recommendCommands()
  .help()
  .version()
  .wrap(Math.min(100, process.stdout.columns ?? 100))
  .fail((message, error) => {
    if (error) throw error;
    process.stderr.write(`witness: ${message}\nRun \`witness --help\` for usage.\n`);
    process.exit(2);
  });

await cli.parseAsync();

#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { join } from "node:path";

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
  .version(ownVersion())
  .wrap(Math.min(100, process.stdout.columns ?? 100))
  .fail((message, error) => {
    if (error) throw error;
    process.stderr.write(`witness: ${message}\nRun \`witness --help\` for usage.\n`);
    process.exit(2);
  });

skipHelpCache(cli);
await cli.parseAsync();

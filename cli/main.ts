// The witness command: scripts/bundle-cli.mjs bundles it, and launch.ts runs it.
import { hideBin } from "yargs/helpers";

import { witnessProgram } from "./program.js";

// A reader that closes early (`witness adr check | head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

// Bundled as CommonJS (for the code cache), so no top-level await: an unexpected rejection ends
// the process as an unhandled one would, with exit 1.
void witnessProgram(hideBin(process.argv)).parseAsync();

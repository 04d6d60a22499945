import type { CommandModule } from "yargs";

import { withJson } from "../common-options.js";
import { handled } from "../exit.js";

/** The flags of `witness serve`, as yargs hands them over. */
export interface ServeArgs {
  script: string;
  port?: number;
  requests?: string;
  json: boolean;
}

/** `witness serve`: the fake model on loopback until Ctrl-C, for an orchestrator's own tests. */
export const serveCommand: CommandModule<object, ServeArgs> = {
  command: "serve",
  describe:
    "Serve the scripted fake model on loopback and print the env that points each CLI at it",
  builder: (y) =>
    withJson(
      y
        .usage("$0 serve --script <file> [--port N] [--requests <out.jsonl>]")
        .option("script", {
          type: "string",
          demandOption: true,
          describe: "fake model script (YAML/JSON), as in a protocol's arm",
        })
        .option("port", { type: "number", describe: "loopback port (default: a free one)" })
        .option("requests", {
          type: "string",
          describe: "append each captured request to this JSON Lines file as it arrives",
        }),
      "the base URL and each CLI's env",
    ),
  handler: handled(async (args) => {
    const { serveFake } = await import("../../probes/serve/serve.js");
    const { renderCliEnv, undrivenClis } = await import("../../probes/serve/cli-env.js");
    const { catchInterrupts } = await import("../interrupts.js");
    // Installed before the URL is printed: a caller may signal as soon as it has read it.
    const interrupts = catchInterrupts();
    try {
      const fake = await serveFake({
        script: args.script,
        ...(args.port === undefined ? {} : { port: args.port }),
        ...(args.requests === undefined ? {} : { requests: args.requests }),
      });
      const envs = await fake.envs();
      process.stdout.write(
        args.json
          ? `${JSON.stringify({ url: fake.url, clis: envs })}\n`
          : `# witness fake model: ${fake.url}\n\n${envs.map(renderCliEnv).join("\n\n")}\n\n# no driver, so no plumbing known: ${undrivenClis().join(", ")}\n`,
      );
      process.stderr.write("witness: serving until Ctrl-C (SIGINT) or SIGTERM\n");
      if (!interrupts.signal.aborted)
        await new Promise<void>((resolve) => {
          interrupts.signal.addEventListener("abort", () => resolve(), { once: true });
        });
      await fake.close();
      // Stopping is how a server ends: a clean stop is a success.
      return 0;
    } finally {
      interrupts.dispose();
    }
  }),
};

import type { CommandModule } from "yargs";

import { handled } from "../exit.js";

/**
 * `witness mcp-sentinel-server`: a stdio MCP server offering one tool, `touch_sentinel`, that writes
 * a probe cell's sentinel file. Probes plant it in a CLI's MCP configuration; stdout is the protocol.
 */
export const mcpSentinelCommand: CommandModule<object, { started?: string }> = {
  command: "mcp-sentinel-server",
  describe: "Serve a one-tool MCP server on stdio whose tool writes a probe's sentinel file",
  builder: (y) =>
    y.option("started", {
      type: "string",
      describe: "a sentinel path to write as soon as the server starts",
    }),
  handler: handled(async (args: { started?: string }) => {
    const { serveSentinelMcp } = await import("../../probes/mcp/sentinel-server.js");
    await serveSentinelMcp(args.started === undefined ? {} : { started: args.started });
  }),
};

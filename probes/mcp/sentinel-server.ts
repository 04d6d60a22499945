// A tiny stdio MCP server whose one tool writes a sentinel: a probe plants it in a CLI's MCP
// configuration and the sentinel's existence says whether the CLI really started it and ran the call.
import { basename, dirname } from "node:path";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

import { writeFileAtomic } from "../../core/atomic.js";
import { UsageError } from "../../core/errors.js";

/** The server's name, as a CLI lists its tools (Claude Code: `mcp__<name>__<tool>`). */
export const SENTINEL_SERVER_NAME = "witness";
/** The one tool it offers. */
export const SENTINEL_TOOL = "touch_sentinel";

/**
 * Why `path` is not a sentinel path, or null. Only a cell's sentinel file may be written: its
 * directory is `sentinels` or `.witness-sentinels`, its name letters, digits and `_`.
 */
export function sentinelPathProblem(path: string): string | null {
  if (!path.startsWith("/")) return "expected an absolute path";
  if (!["sentinels", ".witness-sentinels"].includes(basename(dirname(path))))
    return "expected a path inside a cell's sentinels or .witness-sentinels directory";
  if (!/^[A-Za-z0-9_]+$/.test(basename(path)))
    return "expected a sentinel name of letters, digits and _";
  return null;
}

/** Writes the sentinel a call names; the text the tool returns to the model. */
export async function touchSentinel(path: string): Promise<{ ok: boolean; text: string }> {
  const problem = sentinelPathProblem(path);
  if (problem !== null) return { ok: false, text: `refused ${path}: ${problem}` };
  await writeFileAtomic(path, `${SENTINEL_TOOL}\n`);
  return { ok: true, text: `wrote ${path}` };
}

/** The server with its one tool registered, not yet connected to a transport. */
export function sentinelMcpServer(): McpServer {
  const server = new McpServer({ name: SENTINEL_SERVER_NAME, version: "1.0.0" });
  server.registerTool(
    SENTINEL_TOOL,
    {
      description: "Write the sentinel file at the given absolute path.",
      inputSchema: { path: z.string().min(1) },
    },
    async ({ path }) => {
      const result = await touchSentinel(path);
      return { content: [{ type: "text", text: result.text }], isError: !result.ok };
    },
  );
  return server;
}

/**
 * Serves the sentinel tool on stdin/stdout; the process lives until the client closes stdin.
 * With `started`, that sentinel is written first: the CLI started the server, whether or not it
 * ever offers the tool to the model.
 */
export async function serveSentinelMcp(options: { started?: string } = {}): Promise<void> {
  if (options.started !== undefined) {
    const result = await touchSentinel(options.started);
    if (!result.ok) throw new UsageError(`--started: ${result.text}`);
  }
  await sentinelMcpServer().connect(new StdioServerTransport());
}

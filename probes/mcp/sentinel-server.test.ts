import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";

import { SENTINEL_TOOL, sentinelMcpServer, sentinelPathProblem } from "./sentinel-server.js";

const dirs: string[] = [];
afterEach(() => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

async function connected(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await sentinelMcpServer().connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return client;
}

describe("the sentinel MCP server", () => {
  it("offers exactly its one tool", async () => {
    const client = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([SENTINEL_TOOL]);
  });

  it("writes the sentinel a call names, and only then", async () => {
    const dir = await mkdtemp(join(tmpdir(), "witness-mcp-"));
    dirs.push(dir);
    await mkdir(join(dir, "sentinels"));
    const path = join(dir, "sentinels", "MCP_RAN");
    const client = await connected();
    await expect(readFile(path, "utf8")).rejects.toThrow();
    const result = await client.callTool({ name: SENTINEL_TOOL, arguments: { path } });
    expect(result.isError).toBe(false);
    expect(await readFile(path, "utf8")).toBe(`${SENTINEL_TOOL}\n`);
  });

  it("refuses a path that is not a cell's sentinel, writing nothing", async () => {
    const client = await connected();
    const result = await client.callTool({ name: SENTINEL_TOOL, arguments: { path: "/etc/x" } });
    expect(result.isError).toBe(true);
    expect(sentinelPathProblem("/tmp/c/sentinels/bad-name")).toMatch(/letters, digits/);
    expect(sentinelPathProblem("rel/sentinels/A")).toMatch(/absolute/);
    expect(sentinelPathProblem("/tmp/c/ws/.witness-sentinels/A")).toBeNull();
  });
});

describe("serveSentinelMcp", () => {
  it("refuses a --started path that is not a sentinel, before serving", async () => {
    const { serveSentinelMcp } = await import("./sentinel-server.js");
    await expect(serveSentinelMcp({ started: "/etc/x" })).rejects.toThrow(/--started: refused/);
  });
});

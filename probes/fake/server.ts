// The loopback HTTP server both fake models share: capture every request, let a protocol answer it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

import { z } from "zod";

import { errorMessage } from "../../core/error-text.js";
import { isSecretName, redactText, redactValue } from "../../core/redact.js";

/** A tool call the fake model issued, as data: the id the CLI echoes back, and its turn. */
export const issuedCallSchema = z.object({
  id: z.string(),
  /** The script turn it belongs to (0-based). */
  turn: z.number().int(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export type IssuedCall = z.infer<typeof issuedCallSchema>;

/** One request as the fake server received it: headers redacted, body parsed when it is JSON. */
export const capturedRequestSchema = z.object({
  method: z.string(),
  /** Path with its query string, e.g. `/v1/messages?beta=true`. */
  path: z.string(),
  headers: z.record(z.string(), z.string()),
  /** Parsed JSON body, the raw text when it is not JSON, null when empty. */
  body: z.unknown(),
  /** What the server played back: `turn:<n>`, `final`, `classifier:…`, `not-found`, a fault… */
  answer: z.string(),
  /** The HTTP status the fake answered with (absent in captures older than this field). */
  status: z.number().int().optional(),
  /** The tool calls this reply issued (absent when it issued none). */
  issued: z.array(issuedCallSchema).optional(),
  /**
   * Who sent it, by the route prefix of the base URL it was given (absent: no prefix): a CLI
   * process started through a cell shim (`/s/<n>`: `spawn` n), or the orchestrator's own
   * environment (`/o`: `spawn` 0, a request no shim started).
   */
  spawn: z.number().int().nonnegative().optional(),
});
export type CapturedRequest = z.infer<typeof capturedRequestSchema>;

/** How a protocol answers one request; `issued` lists the tool calls the reply carries. */
export type Reply = (
  | { kind: "json"; status: number; body: unknown }
  | { kind: "sse"; chunks: readonly string[] }
  | { kind: "truncate"; chunks: readonly string[] }
  | { kind: "hang" }
) & { answer: string; issued?: readonly IssuedCall[] };

/**
 * A protocol: given a request's path (route prefix taken off), parsed body and method, the reply
 * to play; `spawn` is the spawn the route prefix named, when it named one.
 */
export type Responder = (path: string, body: unknown, method: string, spawn?: number) => Reply;

/** The spawn a route prefix names: `/s/<n>` is spawn n (n ≥ 1), `/o` is 0; absent for any other path. */
export interface Routed {
  spawn?: number;
  /** The path with the prefix taken off, as the protocol reads it. */
  path: string;
}

/** The largest spawn number a route may name (a bound, not a count of anything). */
export const MAX_ROUTED_SPAWN = 100_000;

/** Splits a request path into its attribution prefix and the path the protocol answers. */
export function routeOf(path: string): Routed {
  const spawned = /^\/s\/([1-9]\d{0,5})(\/.*|\?.*)?$/.exec(path);
  if (spawned?.[1] !== undefined && Number(spawned[1]) <= MAX_ROUTED_SPAWN)
    return { spawn: Number(spawned[1]), path: normalise(spawned[2]) };
  const own = /^\/o(\/.*|\?.*)?$/.exec(path);
  if (own !== null) return { spawn: 0, path: normalise(own[1]) };
  return { path };
}

function normalise(rest: string | undefined): string {
  if (rest === undefined || rest === "") return "/";
  return rest.startsWith("?") ? `/${rest}` : rest;
}

/** A running fake server. */
export interface FakeServer {
  /** `http://127.0.0.1:<port>` when listening on TCP; empty when on a unix socket only. */
  url: string;
  /** Every request, in arrival order. */
  readonly requests: CapturedRequest[];
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "proxy-authorization", "cookie"]);

/** Redacts headers that carry credentials, and secret-shaped values in the rest, keeping their length. */
export function redactHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(", ") : raw;
    out[name] =
      SECRET_HEADERS.has(name) || isSecretName(name) ? redactValue(value) : redactText(value);
  }
  return out;
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function play(reply: Reply, res: ServerResponse): void {
  switch (reply.kind) {
    case "json":
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.body));
      return;
    case "sse":
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(reply.chunks.join(""));
      return;
    case "truncate":
      // Send the head of a stream, then cut the connection without the terminating events.
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(reply.chunks.join(""));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    case "hang":
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      return;
  }
}

/** Where the server listens: an ephemeral loopback TCP port (default) or a unix socket path. */
export interface ListenOptions {
  socketPath?: string;
  /** A fixed loopback TCP port instead of an ephemeral one (`witness serve --port`). */
  port?: number;
}

/** Starts a fake server on 127.0.0.1 (or a unix socket) that records requests and answers via `respond`. */
export async function startFakeServer(
  respond: Responder,
  options: ListenOptions = {},
): Promise<FakeServer> {
  const requests: CapturedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => {
      const routed = routeOf(req.url ?? "/");
      const path = routed.path;
      const body = parseBody(Buffer.concat(parts).toString("utf8"));
      let reply: Reply;
      try {
        reply = respond(path, body, req.method ?? "", routed.spawn);
      } catch (error) {
        const body = { error: errorMessage(error) };
        reply = { kind: "json", status: 500, body, answer: "responder-error" };
      }
      requests.push({
        method: req.method ?? "",
        path,
        headers: redactHeaders(req.headers),
        body,
        answer: reply.answer,
        status: reply.kind === "json" ? reply.status : 200,
        ...(reply.issued === undefined || reply.issued.length === 0
          ? {}
          : { issued: [...reply.issued] }),
        ...(routed.spawn === undefined ? {} : { spawn: routed.spawn }),
      });
      play(reply, res);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (options.socketPath === undefined) server.listen(options.port ?? 0, "127.0.0.1", resolve);
    else server.listen(options.socketPath, resolve);
  });
  const address = server.address();
  const url =
    address !== null && typeof address === "object" ? `http://127.0.0.1:${address.port}` : "";
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging replies never end by themselves: cut them so close() returns.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Formats one named server-sent event. */
export function sseEvent(name: string | null, data: unknown): string {
  return `${name === null ? "" : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;
}

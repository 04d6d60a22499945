// The fake server's per-spawn routes: a prefix names the spawn, and the protocol sees the path without it.
import { describe, expect, it } from "vitest";

import { MAX_ROUTED_SPAWN, routeOf, startFakeServer } from "./server.js";

describe("routeOf", () => {
  it.each([
    ["/s/1/v1/messages?beta=true", { spawn: 1, path: "/v1/messages?beta=true" }],
    ["/s/12/v1/responses", { spawn: 12, path: "/v1/responses" }],
    ["/s/3", { spawn: 3, path: "/" }],
    ["/s/3?x=1", { spawn: 3, path: "/?x=1" }],
    ["/o/v1/messages", { spawn: 0, path: "/v1/messages" }],
    ["/o", { spawn: 0, path: "/" }],
    ["/v1/messages", { path: "/v1/messages" }],
    ["/s/0/v1/messages", { path: "/s/0/v1/messages" }],
    ["/s/01/v1/messages", { path: "/s/01/v1/messages" }],
    ["/s/x/v1/messages", { path: "/s/x/v1/messages" }],
    ["/other/v1", { path: "/other/v1" }],
    [`/s/${MAX_ROUTED_SPAWN + 1}/v1`, { path: `/s/${MAX_ROUTED_SPAWN + 1}/v1` }],
  ])("%s", (path, routed) => {
    expect(routeOf(path)).toEqual(routed);
  });
});

describe("startFakeServer", () => {
  it("answers a prefixed request as the bare path, and keeps the spawn on the capture", async () => {
    const seen: unknown[] = [];
    const server = await startFakeServer((path, _body, _method, spawn) => {
      seen.push({ path, spawn });
      return { kind: "json", status: 200, body: {}, answer: "ok" };
    });
    try {
      for (const p of ["/s/2/v1/messages", "/o/v1/messages", "/v1/messages"])
        await fetch(`${server.url}${p}`, { method: "POST", body: "{}" });
      expect(seen).toEqual([
        { path: "/v1/messages", spawn: 2 },
        { path: "/v1/messages", spawn: 0 },
        { path: "/v1/messages", spawn: undefined },
      ]);
      expect(server.requests.map((r) => [r.path, r.spawn])).toEqual([
        ["/v1/messages", 2],
        ["/v1/messages", 0],
        ["/v1/messages", undefined],
      ]);
    } finally {
      await server.close();
    }
  });
});

import { afterEach, describe, expect, it } from "vitest";

import { scriptSchema } from "../contracts/script.js";
import { claudeCodeDriver } from "../drivers/claude-code.js";
import { driverResponder } from "../drivers/responder.js";
import { type FakeServer, startFakeServer } from "./server.js";
import { looksLikeModelRequest, sideRequestSummary } from "./side-routes.js";

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("side traffic", () => {
  it("answers Claude Code's preconnect HEAD /api/hello with 200 and lists it, count and status", async () => {
    const script = scriptSchema.parse({ final: "done" });
    server = await startFakeServer(driverResponder(claudeCodeDriver, script, "2.1.282"));
    const head = await fetch(`${server.url}/api/hello`, { method: "HEAD" });
    await fetch(`${server.url}/api/hello`, { method: "HEAD" });
    const other = await fetch(`${server.url}/healthz`);
    expect(head.status).toBe(200);
    expect(other.status).toBe(404);
    expect(sideRequestSummary(server.requests)).toEqual([
      { method: "HEAD", path: "/api/hello", status: 200, count: 2 },
      { method: "GET", path: "/healthz", status: 404, count: 1 },
    ]);
  });

  it("tells a model call on an unserved route from side traffic by its body", () => {
    expect(looksLikeModelRequest({ method: "POST", body: { model: "m", messages: [] } })).toBe(
      true,
    );
    expect(looksLikeModelRequest({ method: "POST", body: { events: [] } })).toBe(false);
    expect(looksLikeModelRequest({ method: "HEAD", body: null })).toBe(false);
  });
});

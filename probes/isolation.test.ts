import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildChildEnv } from "../orchestrator/child-env.js";
import { runProcess } from "../orchestrator/exec.js";
import { startFakeServer } from "./fake-server.js";
import { bridgePort, netnsTools, wrapInNetns } from "./isolation.js";

const tools = await netnsTools();
const reason =
  "this machine cannot create a network namespace (unshare --net failed or ip is missing)";
if (tools === null) console.warn(`skipping the netns tests: ${reason}`);

// Runs inside the namespace: which interfaces are up, and can the bridged fake server be reached?
const INSIDE = `
// /proc/self/net/dev lists this namespace's interfaces (sysfs would show the host's); networkInterfaces their addresses.
const names = require("node:fs").readFileSync("/proc/self/net/dev", "utf8").split("\\n").slice(2).map((l) => l.split(":")[0].trim()).filter(Boolean);
const addressed = Object.keys(require("node:os").networkInterfaces());
const up = [...new Set([...names, ...addressed])].sort();
fetch("http://127.0.0.1:" + process.argv[1] + "/v1/ping", { method: "POST", body: "{}" })
  .then((r) => r.status, (e) => String(e))
  .then((status) => console.log(JSON.stringify({ up, status })));
`;

describe("network isolation", () => {
  it.skipIf(tools === null)(
    "runs a command in a namespace where only loopback is up, bridged to the fake server",
    async () => {
      const scratch = await mkdtemp(join(tmpdir(), "witness-netns-test-"));
      const socketPath = join(scratch, "fake.sock");
      const server = await startFakeServer(
        () => ({ kind: "json", status: 404, body: {}, answer: "not-found" }),
        { socketPath },
      );
      try {
        const port = bridgePort();
        if (tools === null) throw new Error(reason);
        const launch = wrapInNetns(tools, { port, socketPath, scratch }, process.execPath, [
          "-e",
          INSIDE,
          String(port),
        ]);
        const result = await runProcess({
          ...launch,
          env: buildChildEnv({ parent: process.env }),
          cwd: scratch,
          timeoutMs: 20_000,
        });
        expect(result.stderr).toBe("");
        expect(JSON.parse(result.stdout)).toEqual({ up: ["lo"], status: 404 });
        expect(server.requests.map((r) => r.path)).toEqual(["/v1/ping"]);
      } finally {
        await server.close();
        await rm(scratch, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(tools === null)(
    "cannot reach a server listening on the host's loopback from inside",
    async () => {
      const scratch = await mkdtemp(join(tmpdir(), "witness-netns-test-"));
      const host = await startFakeServer(() => ({
        kind: "json",
        status: 200,
        body: {},
        answer: "reply",
      }));
      const bridged = await startFakeServer(
        () => ({ kind: "json", status: 404, body: {}, answer: "not-found" }),
        { socketPath: join(scratch, "s.sock") },
      );
      try {
        if (tools === null) throw new Error(reason);
        const hostPort = new URL(host.url).port;
        const launch = wrapInNetns(
          tools,
          { port: bridgePort(), socketPath: join(scratch, "s.sock"), scratch },
          process.execPath,
          ["-e", INSIDE, hostPort],
        );
        const result = await runProcess({
          ...launch,
          env: buildChildEnv({ parent: process.env }),
          cwd: scratch,
          timeoutMs: 20_000,
        });
        const seen = JSON.parse(result.stdout) as { status: unknown };
        expect(typeof seen.status).toBe("string"); // a connection error, not an HTTP status
        expect(host.requests).toEqual([]);
      } finally {
        await host.close();
        await bridged.close();
        await rm(scratch, { recursive: true, force: true });
      }
    },
  );
});

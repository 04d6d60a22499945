import { tmpdir } from "node:os";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { runProcess } from "../../core/exec.js";
import { startFakeServer } from "../fake/server.js";
import {
  acquireSlot,
  defaultForwarder,
  type ForwarderKind,
  type NetnsSlot,
  netnsTools,
  releaseWarmSlot,
  slotPrepared,
  startSlot,
} from "./netns.js";

const tools = await netnsTools();
const reason =
  "this machine cannot create a network namespace (unshare --net failed or ip is missing)";
if (tools === null) console.warn(`skipping the netns tests: ${reason}`);
// Every forwarder this machine can run: node always, socat where it is installed.
const forwarders: ForwarderKind[] = tools?.socat ? ["socat", "node"] : ["node"];
if (tools !== null && tools.socat === null)
  console.warn("skipping the socat forwarder's netns tests: socat is not installed");

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

// Inside the namespace: one POST of `size` bytes; prints how many bytes came back and the status.
const ROUND_TRIP = `
fetch("http://127.0.0.1:" + process.argv[1] + "/v1/echo", { method: "POST", body: "x".repeat(Number(process.argv[2])) })
  .then(async (r) => console.log(JSON.stringify({ status: r.status, back: (await r.text()).length })), (e) => console.log(JSON.stringify({ error: String(e) })));
`;

// Runs INSIDE in the slot's namespace against a fake server that answers 404 on the slot's socket.
async function pingInside(slot: NetnsSlot) {
  const server = await startFakeServer(
    () => ({ kind: "json", status: 404, body: {}, answer: "not-found" }),
    { socketPath: slot.socketPath },
  );
  try {
    const result = await runProcess({
      ...slot.wrap(process.execPath, ["-e", INSIDE, String(slot.port)]),
      env: buildChildEnv({ parent: process.env }),
      cwd: tmpdir(),
      timeoutMs: 20_000,
    });
    return { ...result, paths: server.requests.map((r) => r.path) };
  } finally {
    await server.close();
  }
}

describe.each(forwarders)("network isolation, %s forwarder", (forwarder) => {
  it.skipIf(tools === null)(
    "carries a large request in and a large reply out, byte for byte",
    async () => {
      if (tools === null) throw new Error(reason);
      const slot = await startSlot(tools, forwarder);
      expect(slot.forwarder).toBe(forwarder);
      const reply = "y".repeat(3_000_000);
      const server = await startFakeServer(
        () => ({ kind: "json", status: 200, body: reply, answer: "reply" }),
        { socketPath: slot.socketPath },
      );
      try {
        const launch = slot.wrap(process.execPath, [
          "-e",
          ROUND_TRIP,
          String(slot.port),
          "2000000",
        ]);
        const result = await runProcess({
          ...launch,
          env: buildChildEnv({ parent: process.env }),
          cwd: tmpdir(),
          timeoutMs: 20_000,
        });
        expect(result.stderr).toBe("");
        // The reply is JSON: the string and its two quotes.
        expect(JSON.parse(result.stdout)).toEqual({ status: 200, back: reply.length + 2 });
        expect(server.requests.map((r) => (r.body as string).length)).toEqual([2_000_000]);
      } finally {
        await server.close();
        await slot.release();
      }
    },
  );

  it.skipIf(tools === null)(
    "runs a command in a namespace where only loopback is up, bridged to the fake server",
    async () => {
      if (tools === null) throw new Error(reason);
      const slot = await startSlot(tools, forwarder);
      try {
        const { stdout, stderr, paths } = await pingInside(slot);
        expect(stderr).toBe("");
        expect(JSON.parse(stdout)).toEqual({ up: ["lo"], status: 404 });
        expect(paths).toEqual(["/v1/ping"]);
      } finally {
        await slot.release();
      }
    },
  );

  it.skipIf(tools === null)(
    "cannot reach a server listening on the host's loopback from inside",
    async () => {
      if (tools === null) throw new Error(reason);
      const slot = await startSlot(tools, forwarder);
      const host = await startFakeServer(() => ({
        kind: "json",
        status: 200,
        body: {},
        answer: "reply",
      }));
      try {
        const launch = slot.wrap(process.execPath, ["-e", INSIDE, new URL(host.url).port]);
        const result = await runProcess({
          ...launch,
          env: buildChildEnv({ parent: process.env }),
          cwd: tmpdir(),
          timeoutMs: 20_000,
        });
        const seen = JSON.parse(result.stdout) as { status: unknown };
        expect(typeof seen.status).toBe("string"); // a connection error, not an HTTP status
        expect(host.requests).toEqual([]);
      } finally {
        await host.close();
        await slot.release();
      }
    },
  );

  it.skipIf(tools === null)(
    "hands out a different fresh namespace to each spawn and stops the forwarder on release",
    async () => {
      if (tools === null) throw new Error(reason);
      const ns = async (slot: NetnsSlot) =>
        (
          await runProcess({
            ...slot.wrap("/bin/readlink", ["/proc/self/ns/net"]),
            env: {},
            cwd: "/",
          })
        ).stdout.trim();
      const a = await acquireSlot({ ...tools, socat: forwarder === "socat" ? tools.socat : null });
      const b = await acquireSlot({ ...tools, socat: forwarder === "socat" ? tools.socat : null });
      expect([a.forwarder, b.forwarder]).toEqual([forwarder, forwarder]);
      const [nsA, nsB] = [await ns(a), await ns(b)];
      expect(nsA).toMatch(/^net:\[\d+\]$/);
      expect(nsA).not.toBe(nsB);
      await a.release();
      await b.release();
      await releaseWarmSlot();
      // release() does not wait for the forwarder to exit; `stopped` says when it has.
      await Promise.all([a.stopped, b.stopped]);
      const after = await runProcess({ ...a.wrap("/bin/true", []), env: {}, cwd: "/" });
      expect(after.exitCode).not.toBe(0);
    },
  );
});

describe("the namespace prepared ahead", () => {
  it.skipIf(tools === null)(
    "is not started for a lone spawn, and is for each spawn from the second on",
    async () => {
      if (tools === null) throw new Error(reason);
      await releaseWarmSlot();
      const first = await acquireSlot(tools);
      expect(slotPrepared()).toBe(false); // `witness probe`: nobody would use a next one
      const second = await acquireSlot(tools);
      expect(slotPrepared()).toBe(true);
      await Promise.all([first.release(), second.release()]);
      await releaseWarmSlot();
      expect(slotPrepared()).toBe(false);
      await Promise.all([first.stopped, second.stopped]);
    },
  );
});

describe("the forwarder's fallback", () => {
  it("is node when socat is missing, socat when it is there", () => {
    const base = { unshare: "/usr/bin/unshare", nsenter: "/usr/bin/nsenter", ip: "/sbin/ip" };
    expect(defaultForwarder({ ...base, socat: null })).toBe("node");
    expect(defaultForwarder({ ...base, socat: "/usr/bin/socat" })).toBe("socat");
  });

  it.skipIf(tools === null)(
    "falls back to the node forwarder when socat fails to start",
    async () => {
      if (tools === null) throw new Error(reason);
      await releaseWarmSlot();
      const slot = await acquireSlot({ ...tools, socat: "/bin/false" });
      expect(slot.forwarder).toBe("node");
      const entered = await runProcess({ ...slot.wrap("/bin/true", []), env: {}, cwd: "/" });
      expect(entered.exitCode).toBe(0);
      await slot.release();
      await releaseWarmSlot();
      await slot.stopped;
    },
  );

  it.skipIf(tools === null)(
    "starts a working node forwarder on a machine without socat",
    async () => {
      if (tools === null) throw new Error(reason);
      const slot = await startSlot({ ...tools, socat: null });
      expect(slot.forwarder).toBe("node");
      try {
        expect(JSON.parse((await pingInside(slot)).stdout)).toEqual({ up: ["lo"], status: 404 });
      } finally {
        await slot.release();
      }
    },
  );
});

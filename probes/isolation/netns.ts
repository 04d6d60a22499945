// Network isolation: each spawn runs in its own fresh network namespace with only loopback up,
// bridged to the in-process fake server by a forwarder that holds the namespace open: socat where
// it is installed, else a `node -e` program (a whole Node start-up per namespace).
// Namespaces are prepared one ahead (a "slot"), so their start-up overlaps the previous spawn.
import { existsSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

import { InternalError } from "../../core/errors.js";
import { type ExecResult, runProcess } from "../../core/exec.js";
import { makeOwnedTempDir } from "../leftovers.js";
import { FORWARDER_SOURCE } from "./forwarder-program.js";

/** The assets shipped beside this module (copied into dist by the build). */
export const ASSETS_DIR = join(import.meta.dirname, "assets");

const find = (names: string[]) =>
  ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
    .flatMap((dir) => names.map((n) => join(dir, n)))
    .find((p) => existsSync(p));

/** The tools a namespace launch needs; `socat` is the forwarder when present. */
export interface NetnsTools {
  unshare: string;
  nsenter: string;
  ip: string;
  socat: string | null;
}

/** Which program bridges a namespace's loopback to the fake server. */
export type ForwarderKind = "socat" | "node";

/** The forwarder a slot gets by default: socat when installed, else node. */
export function defaultForwarder(tools: NetnsTools): ForwarderKind {
  return tools.socat === null ? "node" : "socat";
}

// The forwarder's command line; both report "ready <pid>" on the control socket and exit when it closes.
function forwarderArgs(
  kind: ForwarderKind,
  tools: NetnsTools,
  paths: { port: number; socketPath: string; controlPath: string },
): string[] {
  const rest = [String(paths.port), paths.socketPath, paths.controlPath];
  if (kind === "node") return [process.execPath, "-e", FORWARDER_SOURCE, ...rest];
  if (tools.socat === null) throw new InternalError("netns: the socat forwarder needs socat");
  const hex = paths.port.toString(16).toUpperCase().padStart(4, "0");
  return ["/bin/sh", join(ASSETS_DIR, "socat-forwarder.sh"), tools.socat, ...rest, hex];
}

/** One prepared namespace: a forwarder on 127.0.0.1:`port` inside, piping to `socketPath`. */
export interface NetnsSlot {
  port: number;
  /** The program that forwards (and that every observation of the spawn names). */
  forwarder: ForwarderKind;
  /** Where the fake server must listen (a unix socket; reachable from both namespaces). */
  socketPath: string;
  /** Wraps `file args` so it runs inside this slot's namespace. */
  wrap(file: string, args: readonly string[]): { file: string; args: string[] };
  /** Tells the forwarder to stop (the namespace goes with it); does not wait for it. */
  release(): Promise<void>;
  /** Resolves once the forwarder has exited and the slot's directory is removed. */
  stopped: Promise<void>;
}

/** A port for the in-namespace forwarder; the namespace is fresh, so any unprivileged port is free. */
export function bridgePort(): number {
  return 20_000 + Math.floor(Math.random() * 40_000);
}

function waitForReady(control: Server, exited: Promise<ExecResult>) {
  return new Promise<{ pid: number; connection: Socket }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new InternalError("netns forwarder: no ready in 15 s")),
      15_000,
    );
    control.once("connection", (connection) => {
      let text = "";
      connection.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        const match = /^ready (\d+)\n/.exec(text);
        if (match) {
          clearTimeout(timer);
          resolve({ pid: Number(match[1]), connection });
        }
      });
    });
    void exited.then((r) => {
      clearTimeout(timer);
      reject(
        new InternalError(
          `netns forwarder exited before ready: ${r.spawnError ?? r.stderr.trim()}`,
        ),
      );
    });
  });
}

// Slot directories not yet removed; an exiting process removes them (their forwarders exit with it).
const liveDirs = new Set<string>();
process.on("exit", () => {
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts one namespace with loopback up and the forwarder listening. */
export async function startSlot(
  tools: NetnsTools,
  forwarder: ForwarderKind = defaultForwarder(tools),
): Promise<NetnsSlot> {
  const dir = await makeOwnedTempDir("witness-netns-");
  liveDirs.add(dir);
  const socketPath = join(dir, "fake.sock");
  const controlPath = join(dir, "control.sock");
  const port = bridgePort();
  // Half-open allowed: the socat forwarder ends its side once "ready" is sent, and the connection
  // must stay open until release() closes it.
  const control = createServer({ allowHalfOpen: true });
  await new Promise<void>((resolve, reject) => {
    control.once("error", reject);
    control.listen(controlPath, resolve);
  });
  const cleanup = async () => {
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
    liveDirs.delete(dir);
  };
  const exited = runProcess({
    file: tools.unshare,
    args: [
      "--net",
      "--",
      "/bin/sh",
      join(ASSETS_DIR, "netns-slot.sh"),
      tools.ip,
      ...forwarderArgs(forwarder, tools, { port, socketPath, controlPath }),
    ],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cwd: dir,
  });
  let ready: { pid: number; connection: Socket };
  try {
    ready = await waitForReady(control, exited);
  } catch (error) {
    await cleanup();
    throw error;
  }
  const stopped = exited.then(cleanup);
  return {
    port,
    forwarder,
    socketPath,
    wrap: (file, args) => ({
      file: tools.nsenter,
      args: [`--net=/proc/${ready.pid}/ns/net`, "--", file, ...args],
    }),
    release: () => {
      // Closing the control connection is the forwarder's signal to exit; the spawn that used the
      // namespace is over, so nobody waits for the forwarder to be gone before tidying up.
      ready.connection.destroy();
      return Promise.resolve();
    },
    stopped,
  };
}

let detected: Promise<NetnsTools | null> | null = null;

async function detect(): Promise<NetnsTools | null> {
  if (process.platform !== "linux") return null;
  const unshare = find(["unshare"]);
  const nsenter = find(["nsenter"]);
  const ip = find(["ip"]);
  if (unshare === undefined || nsenter === undefined || ip === undefined) return null;
  const tools = { unshare, nsenter, ip, socat: find(["socat"]) ?? null };
  try {
    const slot = await startSlot(tools);
    const entered = await runProcess({ ...slot.wrap("/bin/true", []), env: {}, cwd: "/" });
    if (entered.exitCode !== 0) {
      await slot.release();
      return null;
    }
    // The checked namespace is still fresh (only /bin/true ran in it): it serves the first spawn.
    warm ??= Promise.resolve(slot);
    return tools;
  } catch {
    return null;
  }
}

/** The namespace tools when this machine lets us create and enter a network namespace; checked once. */
export function netnsTools(): Promise<NetnsTools | null> {
  detected ??= detect();
  return detected;
}

let warm: Promise<NetnsSlot> | null = null;
let idleTimer: NodeJS.Timeout | null = null;
const IDLE_MS = 1000;
// Spawns since the last releaseWarmSlot: a lone spawn (`witness probe`) prepares no next namespace
// that nobody would use; from the second on, each prepares the next.
let acquiredSinceRelease = 0;

function prepare(tools: NetnsTools): Promise<NetnsSlot> {
  const slot = startSlot(tools);
  slot.catch(() => undefined); // a failed warm slot is reported to whoever takes it
  return slot;
}

/**
 * Takes a prepared namespace (or starts one) and, from the second spawn since the last
 * releaseWarmSlot on, prepares the next for the following spawn.
 */
export async function acquireSlot(tools: NetnsTools): Promise<NetnsSlot> {
  if (idleTimer !== null) clearTimeout(idleTimer);
  const taken = warm ?? prepare(tools);
  acquiredSinceRelease += 1;
  warm = acquiredSinceRelease > 1 ? prepare(tools) : null;
  let slot: NetnsSlot;
  try {
    slot = await taken;
  } catch {
    // The prepared one failed: one cold retry, on the node forwarder (a socat that cannot forward
    // here must not cost the spawn); its errors go to the caller.
    slot = await startSlot(tools, "node");
  }
  return {
    ...slot,
    release: async () => {
      await slot.release();
      // No spawn follows soon: stop the prepared namespace rather than keep the process alive.
      scheduleIdleRelease();
    },
  };
}

/** Whether a namespace is prepared (or being prepared) for the next spawn. */
export function slotPrepared(): boolean {
  return warm !== null;
}

function scheduleIdleRelease(): void {
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void releaseWarmSlot(), IDLE_MS);
  idleTimer.unref();
}

/** Stops the namespace prepared for a next spawn (so the process can exit without waiting). */
export async function releaseWarmSlot(): Promise<void> {
  const pending = warm;
  warm = null;
  acquiredSinceRelease = 0;
  if (idleTimer !== null) clearTimeout(idleTimer);
  if (pending === null) return;
  try {
    const slot = await pending;
    await slot.release();
    await slot.stopped;
  } catch {
    // it never started: nothing to stop
  }
}

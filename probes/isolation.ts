// Network isolation: run the CLI in a fresh network namespace with only loopback, bridged to the fake server.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../orchestrator/exec.js";
import { FORWARDER_SOURCE } from "./forwarder-program.js";

/** The assets shipped beside this module (copied into dist by the build). */
export const ASSETS_DIR = join(import.meta.dirname, "assets");

const IP_CANDIDATES = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"];
const UNSHARE_CANDIDATES = ["/usr/bin/unshare", "/bin/unshare", "/usr/sbin/unshare"];

/** The tools a namespace launch needs, found once. */
export interface NetnsTools {
  unshare: string;
  ip: string;
}

let cached: Promise<NetnsTools | null> | null = null;

async function detect(env: Record<string, string>): Promise<NetnsTools | null> {
  if (process.platform !== "linux") return null;
  const unshare = UNSHARE_CANDIDATES.find((p) => existsSync(p));
  const ip = IP_CANDIDATES.find((p) => existsSync(p));
  if (unshare === undefined || ip === undefined) return null;
  const probe = await runProcess({
    file: unshare,
    args: ["--net", "--", ip, "link", "set", "lo", "up"],
    env,
    cwd: "/",
    timeoutMs: 10_000,
  });
  return probe.exitCode === 0 ? { unshare, ip } : null;
}

/** Whether this machine lets us create a network namespace; checked once per process. */
export function netnsTools(env: Record<string, string> = { PATH: process.env.PATH ?? "" }) {
  cached ??= detect(env);
  return cached;
}

/** Where the bridge between the namespace and the fake server lives. */
export interface Bridge {
  /** The port the forwarder listens on inside the namespace (127.0.0.1). */
  port: number;
  /** The fake server's unix socket in the cell. */
  socketPath: string;
  /** Scratch directory in the cell for the fifo and the forwarder's log. */
  scratch: string;
}

/** Wraps `file args` so it runs in a fresh network namespace reaching the fake server over `bridge`. */
export function wrapInNetns(
  tools: NetnsTools,
  bridge: Bridge,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return {
    file: tools.unshare,
    args: [
      "--net",
      "--",
      "/bin/sh",
      join(ASSETS_DIR, "entry.sh"),
      tools.ip,
      process.execPath,
      FORWARDER_SOURCE,
      String(bridge.port),
      bridge.socketPath,
      join(bridge.scratch, "forwarder.fifo"),
      join(bridge.scratch, "forwarder.log"),
      "--",
      file,
      ...args,
    ],
  };
}

/** A port for the in-namespace forwarder; the namespace is fresh, so any unprivileged port is free. */
export function bridgePort(): number {
  return 20_000 + Math.floor(Math.random() * 40_000);
}

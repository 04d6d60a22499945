// Containment: a probe's CLI and everything it starts die with witness, however witness dies.
// Where Linux allows it, the CLI runs in a PID namespace of its own whose first process is tied
// to witness by a parent-death signal; elsewhere in a process group with a watchdog (core/exec.ts).
import { existsSync } from "node:fs";
import { join } from "node:path";

import { runProcess } from "../../core/exec.js";
import { ASSETS_DIR } from "./netns.js";

/** How a spawn's process tree is tied to witness. */
export type ContainmentKind = "pidns" | "process-group";

/** A way to launch a command so that it cannot outlive witness. */
export interface Containment {
  kind: ContainmentKind;
  /** True when `wrap` can start the cell's flush itself (saving witness a process of its own). */
  flushes: boolean;
  /**
   * Wraps `file args` (a PID namespace launcher); the process group needs no wrapper. With
   * `flushDir`, and where `flushes`, the launcher starts `sync -f flushDir` beside the command.
   */
  wrap(file: string, args: readonly string[], flushDir?: string): { file: string; args: string[] };
}

const find = (name: string) =>
  ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map((dir) => join(dir, name)).find(existsSync);

/**
 * `setpriv --pdeathsig KILL`: the launcher dies when witness does (SIGKILL included);
 * `unshare --pid --fork --kill-child`: its child, the namespace's first process, dies with it, and
 * the kernel then ends every process in the namespace (and in any namespace nested in it).
 * `--mount-proc`: a /proc of the namespace's own; under the host's, Codex 0.171.0's sandboxed
 * commands hang.
 */
export function pidnsContainment(setpriv: string, unshare: string): Containment {
  return {
    kind: "pidns",
    flushes: true,
    wrap: (file, args, flushDir) => ({
      file: setpriv,
      args: [
        "--pdeathsig",
        "KILL",
        "--",
        unshare,
        "--pid",
        "--fork",
        "--mount-proc",
        "--kill-child=SIGKILL",
        "--",
        "/bin/sh",
        join(ASSETS_DIR, "pid-init.sh"),
        ...(flushDir === undefined ? [] : ["--sync-fs", flushDir]),
        file,
        ...args,
      ],
    }),
  };
}

/** The fallback: no wrapper; the exec seam runs the command in a group of its own. */
export const PROCESS_GROUP: Containment = {
  kind: "process-group",
  flushes: false,
  wrap: (file, args) => ({ file, args: [...args] }),
};

async function detect(): Promise<Containment> {
  if (process.platform !== "linux") return PROCESS_GROUP;
  const setpriv = find("setpriv");
  const unshare = find("unshare");
  if (setpriv === undefined || unshare === undefined) return PROCESS_GROUP;
  const contained = pidnsContainment(setpriv, unshare);
  const probe = contained.wrap("/bin/true", []);
  const result = await runProcess({ ...probe, env: {}, cwd: "/", timeoutMs: 10_000 });
  return result.exitCode === 0 ? contained : PROCESS_GROUP;
}

let detected: Promise<Containment> | null = null;

/** The strongest containment this machine offers; checked once. */
export function containment(): Promise<Containment> {
  detected ??= detect();
  return detected;
}

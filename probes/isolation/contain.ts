// Containment: a probe's CLI and everything it starts die with witness, however witness dies, and
// hold no privilege of witness's. Where Linux and root allow it, the CLI runs sandboxed: in a PID
// namespace of its own whose first process is tied to witness by a parent-death signal, in the
// cell view (view.ts), as a host uid of its own that is uid 0 in a user namespace of its own.
// Else in a PID namespace as witness's own user (root), else in a process group with a watchdog.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";

import { InternalError } from "../../core/errors.js";
import { runProcess } from "../../core/exec.js";
import { makeOwnedTempDir } from "../leftovers.js";
import { ASSETS_DIR } from "./netns.js";
import { type PreparedView, prepareView } from "./view.js";

/** How a spawn's process tree is tied to witness and kept from its privileges. */
export type ContainmentKind = "sandbox" | "pidns" | "process-group";

/** What a sandboxed launch needs besides the command: its view, its host uid, where it starts. */
export interface SandboxLaunch {
  view: PreparedView;
  uid: number;
  /** Where the CLI starts, a path inside the view. */
  cwd: string;
  /** Directories the view covers with an empty tmpfs (checked empty before the CLI starts). */
  masks: readonly string[];
}

/** How `wrap` launches a command. */
export interface WrapOptions {
  /** Where `flushes`: start `sync -f flushDir` beside the command. */
  flushDir?: string;
  /** Where `reports`: the spawn's memory cgroup's cgroup.procs, which the first process joins. */
  cgroupProcs?: string;
  /** Required by the sandbox; ignored by the others. */
  sandbox?: SandboxLaunch;
}

/** A way to launch a command so that it cannot outlive witness. */
export interface Containment {
  kind: ContainmentKind;
  /** True when `wrap` can start the cell's flush itself (saving witness a process of its own). */
  flushes: boolean;
  /**
   * True when the launch writes a report on fd 3 (runProcess `reportPipe`): the CLI's resource use,
   * and in the sandbox what held.
   */
  reports: boolean;
  /** Wraps `file args` in the containment's launcher (the process group needs none). */
  wrap(
    file: string,
    args: readonly string[],
    options?: WrapOptions,
  ): { file: string; args: string[] };
}

/** The programs a containment launches with. */
export interface ContainTools {
  setpriv: string;
  unshare: string;
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
function pidnsLauncher(tools: ContainTools): string[] {
  return [
    "--pdeathsig",
    "KILL",
    "--",
    tools.unshare,
    "--pid",
    "--fork",
    "--mount-proc",
    "--kill-child=SIGKILL",
    "--",
    "/bin/sh",
  ];
}

/** The PID namespace as witness's own user: the CLI gets witness's privileges (root). */
export function pidnsContainment(tools: ContainTools): Containment {
  return {
    kind: "pidns",
    flushes: true,
    // Its first process writes the CLI's resource use (assets/tree-use.sh).
    reports: true,
    wrap: (file, args, options = {}) => ({
      file: tools.setpriv,
      args: [
        ...pidnsLauncher(tools),
        join(ASSETS_DIR, "pid-init.sh"),
        ...(options.flushDir === undefined ? [] : ["--sync-fs", options.flushDir]),
        ...(options.cgroupProcs === undefined ? [] : ["--cgroup", options.cgroupProcs]),
        file,
        ...args,
      ],
    }),
  };
}

/**
 * The sandbox: the PID namespace's first process (assets/sandbox.sh, root) builds the cell view,
 * pivots into it and starts the CLI as `uid` through `setpriv --reuid`, `unshare --user
 * --map-root-user` (uid 0 inside, no capability in the host's namespaces; the spawn's mount, PID
 * and network namespaces belong to the host's user namespace, so it cannot unmount, mount or
 * setns them) and assets/report.sh. No no_new_privs: witness's parent-access detector, run as a
 * tool call by protocols 0021 and 0022, reads its absence as the CLI's own full access.
 */
export function sandboxContainment(tools: ContainTools): Containment {
  return {
    kind: "sandbox",
    flushes: true,
    reports: true,
    wrap: (file, args, options = {}) => {
      const box = options.sandbox;
      if (box === undefined) throw new InternalError("sandbox containment: wrap needs a view");
      return {
        file: tools.setpriv,
        args: [
          ...pidnsLauncher(tools),
          join(ASSETS_DIR, "sandbox.sh"),
          ...(options.flushDir === undefined ? [] : ["--sync-fs", options.flushDir]),
          ...(options.cgroupProcs === undefined ? [] : ["--cgroup", options.cgroupProcs]),
          box.view.fstab,
          box.view.root,
          String(box.uid),
          box.cwd,
          tools.setpriv,
          tools.unshare,
          join(ASSETS_DIR, "report.sh"),
          box.view.hostPath,
          String(process.pid),
          ...box.masks.flatMap((dir) => ["--mask", dir]),
          "--",
          file,
          ...args,
        ],
      };
    },
  };
}

/** The fallback: no wrapper; the exec seam runs the command in a group of its own. */
export const PROCESS_GROUP: Containment = {
  kind: "process-group",
  flushes: false,
  reports: false,
  wrap: (file, args) => ({ file, args: [...args] }),
};

// Host uids for sandboxed spawns: 0x70000000 up, above the ranges distributions and systemd give
// to users and containers, and below 2^31. 64 per witness process, keyed by its pid, so two live
// spawns on one machine never share one (a spawn's files and processes are its uid's alone).
const UID_BASE = 0x7000_0000;
const LANES = 64;
const lanesInUse = new Set<number>();

/** A host uid for one sandboxed spawn, unique among the live spawns of this machine's witnesses. */
export function claimSpawnUid(pid = process.pid): { uid: number; release(): void } {
  const lane = [...Array(LANES).keys()].find((l) => !lanesInUse.has(l));
  if (lane === undefined) throw new InternalError(`more than ${LANES} sandboxed spawns at once`);
  lanesInUse.add(lane);
  return {
    uid: UID_BASE + (pid % 0x40_0000) * LANES + lane,
    release: () => lanesInUse.delete(lane),
  };
}

// The one launch that decides: /bin/true in a sandbox of its own, with an empty directory as its cell.
async function sandboxWorks(contained: Containment): Promise<boolean> {
  const cell = await makeOwnedTempDir("witness-cell-");
  const view = await prepareView({ cell, readOnly: [], masks: [] }).catch(
    async (error: unknown) => {
      await rm(cell, { recursive: true, force: true });
      throw error;
    },
  );
  const spawnUid = claimSpawnUid();
  try {
    const launch = contained.wrap("/bin/true", [], {
      sandbox: { view, uid: spawnUid.uid, cwd: cell, masks: [] },
    });
    const result = await runProcess({
      ...launch,
      env: {},
      cwd: "/",
      timeoutMs: 10_000,
      reportPipe: true,
    });
    return result.exitCode === 0 && (result.report ?? "").includes("uid_map:");
  } finally {
    spawnUid.release();
    await Promise.all([view.dispose(), rm(cell, { recursive: true, force: true })]);
  }
}

async function detect(): Promise<Containment> {
  if (process.platform !== "linux") return PROCESS_GROUP;
  const setpriv = find("setpriv");
  const unshare = find("unshare");
  if (setpriv === undefined || unshare === undefined) return PROCESS_GROUP;
  const tools = { setpriv, unshare };
  if (process.getuid?.() === 0 && ["mount", "umount", "pivot_root"].every((t) => find(t))) {
    const sandboxed = sandboxContainment(tools);
    if (await sandboxWorks(sandboxed).catch(() => false)) return sandboxed;
  }
  const contained = pidnsContainment(tools);
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

/**
 * Containment that ties a process's life to witness's and nothing more (npm, an installed CLI's
 * version check): the PID namespace of the sandbox without its view and uid.
 */
export async function lifetimeContainment(): Promise<Containment> {
  const strongest = await containment();
  if (strongest.kind !== "sandbox") return strongest;
  const setpriv = find("setpriv");
  const unshare = find("unshare");
  if (setpriv === undefined || unshare === undefined) return PROCESS_GROUP;
  return pidnsContainment({ setpriv, unshare });
}

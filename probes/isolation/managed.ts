// Machine-wide managed configuration: which of a CLI's managed files exist, a refusal to spawn
// while one does (`managed: require-absent`), and their directories hidden from the CLI in its
// private mount namespace (`managed: mask`).
import { existsSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";

import { RefusalError } from "../../core/errors.js";
import type { ManagedMode } from "../contracts/fixture.js";
import type { ContainmentKind } from "./contain.js";
import { ASSETS_DIR } from "./netns.js";

/** One managed path the driver names, and whether it existed when the spawn was prepared. */
export interface ManagedFact {
  path: string;
  present: boolean;
}

/** Where a driver's managed paths lie: below `root` (tests: a temp directory; default `/`). */
export function managedPath(path: string, root = "/"): string {
  return root === "/" ? path : join(root, path);
}

/** Which of a driver's machine-wide managed files exist: a fact every observation states. */
export function managedFacts(
  paths: readonly string[],
  exists: (path: string) => boolean = existsSync,
  root = "/",
): ManagedFact[] {
  return paths.map((path) => ({ path, present: exists(managedPath(path, root)) }));
}

/**
 * The directories `mask` hides: the one holding each present managed path (every CLI keeps them
 * in a directory of its own, e.g. /etc/claude-code, whose drop-ins and rules go with it). A path
 * directly in a top-level directory (/etc) is refused: hiding /etc would hide the machine.
 */
export function maskTargets(facts: readonly ManagedFact[], root = "/"): string[] {
  const dirs = new Set<string>();
  for (const fact of facts) {
    if (!fact.present) continue;
    const dir = dirname(fact.path);
    if (dir.split("/").filter(Boolean).length < 2)
      throw new RefusalError(
        "managed-unmaskable",
        `${fact.path}: managed: mask hides a CLI's own directory, and ${dir} is shared by the whole machine`,
      );
    dirs.add(managedPath(dir, root));
  }
  return [...dirs].sort();
}

/**
 * Refuses a spawn the fixture's `managed` setting forbids, before anything is installed or
 * started: `require-absent` while a managed path exists, `mask` where no private mount namespace
 * can hide one (a process group; the PID namespace's `--mount-proc` makes one, and so does the
 * sandbox, whose view mounts the mask).
 */
export function refuseManaged(
  mode: ManagedMode,
  facts: readonly ManagedFact[],
  context: { cli: string; containment: ContainmentKind },
): void {
  const present = facts.filter((f) => f.present).map((f) => f.path);
  if (mode === "record" || present.length === 0) return;
  if (mode === "require-absent")
    throw new RefusalError(
      "managed-present",
      `${present.join(", ")}: ${context.cli} reads ${present.length === 1 ? "this machine-wide managed file" : "these machine-wide managed files"} whatever the cell does, and the fixture says managed: require-absent; remove ${present.length === 1 ? "it" : "them"}, or use managed: mask or record`,
    );
  if (context.containment === "process-group")
    throw new RefusalError(
      "managed-unmaskable",
      `${present.join(", ")}: managed: mask needs a private mount namespace (unshare --pid --mount-proc, as root), which this machine does not offer; the spawn would see ${present.length === 1 ? "it" : "them"}`,
    );
}

/** The mount namespace witness runs in (`mnt:[N]`), which a mask must never be mounted in. */
export function hostMountNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/mnt");
  } catch {
    return "unknown";
  }
}

/** The exit code of the mask script when it could not hide a directory: the CLI did not start. */
export const MASK_FAILED_EXIT = 125;

/** The line the mask script writes before it gives up. */
export const MASK_FAILED_PREFIX = "witness-mask: ";

/**
 * Wraps `file args` so that, inside the spawn's private mount namespace, each of `dirs` is covered
 * by an empty read-only tmpfs before the CLI starts (assets/mask-managed.sh). It checks that it is
 * not in witness's own mount namespace and that each directory is empty afterwards; otherwise it
 * exits MASK_FAILED_EXIT and the CLI never runs.
 */
export function maskWrap(
  file: string,
  args: readonly string[],
  dirs: readonly string[],
  host = hostMountNamespace(),
): { file: string; args: string[] } {
  if (dirs.length === 0) return { file, args: [...args] };
  return {
    file: "/bin/sh",
    args: [join(ASSETS_DIR, "mask-managed.sh"), host, ...dirs, "--", file, ...args],
  };
}

/** The mask script's reason when it stopped the spawn, or null when it did not. */
export function maskFailure(exitCode: number | null, stderr: string): string | null {
  if (exitCode !== MASK_FAILED_EXIT) return null;
  const line = stderr.split("\n").find((l) => l.startsWith(MASK_FAILED_PREFIX));
  return line === undefined ? null : line.slice(MASK_FAILED_PREFIX.length);
}

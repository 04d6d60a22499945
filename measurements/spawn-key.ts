// What could change a spawn's outcome, as the spawn cache files it: the protocol's lock, the arm,
// the spawn's index, the CLI install (npm's integrity of every package), the runtime it runs on,
// the witness that runs and judges it, this machine's kernel, the variables the spawn inherits,
// and the CLI's compile cache. The arm holds the rest (fixture, launch, script, predicates, a
// pinned Node): Claude Code's feature-flag input is its environment and ~/.claude.json, both the
// arm's, since the flag service is never reachable offline.
import { arch, platform, release } from "node:os";

import { canonicalHash } from "../core/canonical.js";
import type { Arm } from "../prereg/protocol.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import type { Runtime } from "../probes/contracts/runtime.js";
import type { InstalledCli } from "./record.js";
import type { WitnessBuild } from "./witness-build.js";

/** Everything a spawn's outcome depends on besides chance. */
export interface SpawnInputs {
  schema: "witness.spawn-inputs/1";
  protocol: { id: string; canonicalHash: string };
  /** The canonical hash of the parsed arm. */
  arm: string;
  index: number;
  cli: CliRef;
  installed: Pick<InstalledCli, "pkg" | "integrity" | "packages">;
  runtime: Runtime;
  witness: { version: string; commit: string };
  machine: { platform: string; arch: string; release: string };
  /** The variables the spawn inherits from witness's environment (the allow-list, PATH cut down). */
  inherited: Record<string, string>;
  /** How the CLI's compile cache is set for the spawn (`off` where it has none). */
  compileCache: string;
}

/** This machine as the key names it: a kernel update can change what a sandbox holds. */
export function keyMachine(): SpawnInputs["machine"] {
  return { platform: platform(), arch: arch(), release: release() };
}

/**
 * The inputs of spawn `index` of `arm`, or null when they cannot be pinned down: an install
 * without npm's integrity, or a witness whose commit is unknown or whose checkout has uncommitted
 * changes (its code is then no commit's).
 */
export function spawnInputs(parts: {
  protocol: { id: string; canonicalHash: string };
  arm: Arm;
  index: number;
  cli: CliRef;
  installed: InstalledCli | undefined;
  runtime: Runtime;
  witness: WitnessBuild;
  machine: SpawnInputs["machine"];
  inherited: Record<string, string>;
  compileCache: string;
}): SpawnInputs | null {
  const { installed, witness } = parts;
  if (installed?.integrity == null) return null;
  if (witness.commit === null || witness.dirty !== false) return null;
  return {
    schema: "witness.spawn-inputs/1",
    protocol: parts.protocol,
    arm: canonicalHash(parts.arm),
    index: parts.index,
    cli: parts.cli,
    installed: {
      pkg: installed.pkg,
      integrity: installed.integrity,
      packages: installed.packages,
    },
    runtime: parts.runtime,
    witness: { version: witness.version, commit: witness.commit },
    machine: parts.machine,
    inherited: parts.inherited,
    compileCache: parts.compileCache,
  };
}

/** The hash a spawn is filed under. */
export function inputsHash(inputs: SpawnInputs): string {
  return canonicalHash(inputs);
}

// A binary an orchestrator may run without a shim (an SDK's bundled CLI), allowed by content hash:
// the file the launch names must hash to the allowed value and be byte-identical to the pinned
// CLI's binary, and every unshimmed request must name the pinned version; only then are its model
// requests a named, allowed spawn instead of a bypass fault.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { AllowUnshimmed } from "../contracts/orchestrator-launch.js";

/** An allowance as found after the run: the file's hash (null when absent) and the pinned CLI's. */
export interface UnshimmedCheck {
  allowed: AllowUnshimmed;
  actual: string | null;
  pinned: string;
}

function sha256Of(file: string): string | null {
  try {
    return `sha256:${createHash("sha256").update(readFileSync(file)).digest("hex")}`;
  } catch {
    return null;
  }
}

/** Hashes each allowed file in the cell and the pinned CLI's binary (`pinnedBin`, resolved). */
export function checkUnshimmed(
  allow: readonly AllowUnshimmed[],
  cellRoot: string,
  pinnedBin: string,
): UnshimmedCheck[] {
  const pinned = sha256Of(pinnedBin) ?? "unreadable";
  return allow.map((allowed) => ({
    allowed,
    actual: sha256Of(join(cellRoot, allowed.path)),
    pinned,
  }));
}

/**
 * What the unshimmed requests are: allowed (the one allowance that holds, with the user-agents
 * naming `version`), or the fault that says why not, naming the hashes compared.
 */
export function judgeUnshimmed(
  checks: readonly UnshimmedCheck[],
  agents: readonly string[],
  cli: string,
): { allowed: AllowUnshimmed | null; fault: string | null } {
  const version = cli.split(" ")[1] ?? "";
  const why: string[] = [];
  for (const c of checks) {
    const at = `allowed ${c.allowed.path} (${c.allowed.sha256})`;
    if (c.actual === null) why.push(`${at}: no such file in the cell`);
    else if (c.actual !== c.allowed.sha256) why.push(`${at}: the file's hash is ${c.actual}`);
    else if (c.actual !== c.pinned)
      why.push(`${at}: not the pinned ${cli} binary, whose hash is ${c.pinned}`);
    else {
      const other = agents.filter((a) => !a.includes(version));
      if (other.length === 0) return { allowed: c.allowed, fault: null };
      why.push(`${at}: user-agent ${JSON.stringify(other[0])} does not name ${version}`);
    }
  }
  return { allowed: null, fault: why.length === 0 ? null : why.join("; ") };
}

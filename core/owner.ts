// Who made a temporary thing, so that a later process can tell a crashed run's leftovers from a
// live run's work: the owner's pid and, on Linux, its start time (a pid can be reused).
import { readFileSync } from "node:fs";

import { z } from "zod";

/** A process, as a leftover names its maker. */
export const ownerSchema = z.object({
  pid: z.number().int().positive(),
  /** Clock ticks since boot at the process's start (Linux /proc/<pid>/stat), null elsewhere. */
  start: z.number().int().nullable(),
});
export type Owner = z.infer<typeof ownerSchema>;

function startTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22; the command name (field 2) may hold spaces, so count from its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const value = Number(fields[19]);
    return Number.isInteger(value) ? value : null;
  } catch {
    return null;
  }
}

/** This process, as an owner. */
export function currentOwner(): Owner {
  return { pid: process.pid, start: startTime(process.pid) };
}

/** True while the owner is still running (the same process, not a later one with its pid). */
export function ownerAlive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (owner.start === null) return true;
  const now = startTime(owner.pid);
  return now === null || now === owner.start;
}

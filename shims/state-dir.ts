// The state folder inside a shim directory: awk program, copied outputs, plan claims, plan lengths.
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";

/** The folder, inside the shim directory, that the shims keep their state in. */
export const STATE_DIR_NAME = ".witness";

/** Plan lengths per shim name, so an unmet-plan check also sees plans that were never called. */
export const PLANS_FILE = "plans.json";

/** Removes a shim's call claims, so a reinstalled plan starts again at call 1. */
export async function clearCallClaims(stateDir: string, name: string): Promise<void> {
  const prefix = `${name}.call.`;
  for (const entry of await readdir(stateDir)) {
    if (entry.startsWith(prefix)) await rm(join(stateDir, entry), { force: true });
  }
}

function parsePlans(text: string): Record<string, number> {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, number] => typeof e[1] === "number"),
  );
}

/** Records the plan length of each name (or forgets it when the shim is not a plan). */
export async function writePlanLengths(
  stateDir: string,
  names: readonly string[],
  planLength: number | undefined,
): Promise<void> {
  const file = join(stateDir, PLANS_FILE);
  let plans: Record<string, number>;
  try {
    plans = parsePlans(await readFile(file, "utf8"));
  } catch {
    plans = {};
  }
  for (const name of names) {
    if (planLength === undefined) delete plans[name];
    else plans[name] = planLength;
  }
  await writeFileAtomic(file, `${JSON.stringify(plans, null, 2)}\n`);
}

/** The plan lengths of the shims in `shimDir`; empty when none was installed as a plan. */
export function readPlanLengths(shimDir: string): Record<string, number> {
  const file = join(shimDir, STATE_DIR_NAME, PLANS_FILE);
  return existsSync(file) ? parsePlans(readFileSync(file, "utf8")) : {};
}

/** This boot's id and wall-clock boot time, where /proc offers them (Linux); shims fall back to `date`. */
export async function bootClock(): Promise<{ bootId: string; bootMs: number } | undefined> {
  try {
    const bootId = (await readFile("/proc/sys/kernel/random/boot_id", "utf8")).trim();
    const uptime = Number((await readFile("/proc/uptime", "utf8")).split(" ")[0]);
    if (bootId === "" || !Number.isFinite(uptime)) return undefined;
    return { bootId, bootMs: Math.round(Date.now() - uptime * 1000) };
  } catch {
    return undefined;
  }
}

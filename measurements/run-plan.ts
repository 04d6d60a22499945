// The first step of a run: check the input (files or --all, every lock) and decide, before anything
// is installed or spawned, which protocol runs on which version, with which arms and spawns.
import { isAbsolute, join, resolve } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import type { LockCheck } from "../prereg/verify.js";
import { listProtocols, refuseUnlessLocked, verifyProtocols } from "../prereg/verify.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import type { RunProtocolsOptions } from "./run-options.js";
import { selectArms } from "./select-arms.js";
import { planId, type PlannedSpawn, planSpawns, type RunEntry, shardSpawns } from "./spawn-plan.js";

/** One protocol on one version, as a run plans it. */
export interface PlannedRun {
  check: LockCheck;
  cli: CliRef;
}

/** Which protocol runs on which versions; a protocol whose CLI no `--cli` names is skipped. */
export function planRuns(
  checks: readonly LockCheck[],
  clis: readonly CliRef[] | undefined,
): { runs: PlannedRun[]; skipped: string[] } {
  const runs: PlannedRun[] = [];
  const skipped: string[] = [];
  for (const check of checks) {
    const own = check.loaded.protocol.cli;
    if (clis === undefined || clis.length === 0) {
      runs.push({ check, cli: own });
      continue;
    }
    const mine = clis.filter((c) => c.name === own.name);
    if (mine.length === 0) {
      const asked = [...new Set(clis.map((c) => c.name))].join(", ");
      skipped.push(
        `skipped ${check.loaded.protocol.id} ${check.loaded.protocol.slug}: it runs ${own.name}, and --cli names only ${asked}`,
      );
      continue;
    }
    for (const cli of mine) runs.push({ check, cli });
  }
  return { runs, skipped };
}

/** A run decided, before anything is installed or spawned. */
export interface RunPlan {
  cwd: string;
  out: string;
  entries: RunEntry[];
  /** Every spawn of the plan, in its order. */
  spawns: PlannedSpawn[];
  /** The spawns this machine runs (all of them unless a shard is asked for). */
  mine: PlannedSpawn[];
  skipped: string[];
  plan: string;
}

// The protocol files named, or every registered one with --all; absolute.
async function protocolFiles(options: RunProtocolsOptions, cwd: string): Promise<string[]> {
  const given = options.files ?? [];
  if (options.all === true && given.length > 0)
    throw new UsageError("name protocols or pass --all, not both");
  if (options.all !== true && given.length === 0)
    throw new UsageError("name a protocol file, or pass --all");
  const files =
    options.all === true
      ? await listProtocols({ cwd })
      : given.map((f) => (isAbsolute(f) ? f : resolve(cwd, f)));
  if (files.length === 0) throw new UsageError("no registered protocol in docs/prereg");
  return files;
}

/**
 * Checks every lock and the records directory, selects the arms, and lays out the spawns; refuses
 * bad input (exit 2) before anything is installed or spawned.
 */
export async function planRun(options: RunProtocolsOptions): Promise<RunPlan> {
  const cwd = options.cwd ?? process.cwd();
  const checks = await verifyProtocols({ cwd, files: await protocolFiles(options, cwd) });
  // Refuse everything up front: a refused protocol must not leave its siblings half-run.
  checks.forEach(refuseUnlessLocked);
  const { runs: planned, skipped } = planRuns(checks, options.clis);
  if (planned.length === 0)
    throw new UsageError(`no protocol to run: ${skipped.join("; ") || "none selected"}`);
  const out =
    options.out === undefined
      ? join(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  const all: RunEntry[] = planned.map(({ check, cli }) => ({
    check,
    cli,
    spawns: options.spawns ?? check.loaded.protocol.spawns,
    arms: check.loaded.protocol.arms,
    selection: null,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  }));
  const selected = await selectArms(all, {
    ...(options.arms === undefined ? {} : { arms: options.arms }),
    ...(options.rerun === undefined ? {} : { rerun: options.rerun }),
    recordsDir: out,
  });
  const spawns = planSpawns(selected.entries);
  const mine = options.shard === undefined ? spawns : shardSpawns(spawns, options.shard);
  return {
    cwd,
    out,
    entries: selected.entries,
    spawns,
    mine,
    skipped: [...skipped, ...selected.skipped],
    plan: planId(selected.entries),
  };
}

// `witness run --dry-run`: the run's plan, every arm × spawn as it would launch; nothing spawned,
// nothing installed, nothing written.
import type { DrySpawn } from "../probes/dry-run.js";
import type { RunProtocolsOptions } from "./run-options.js";
import { planRun } from "./run-plan.js";

/** One planned spawn and what it would launch. */
export interface DryRunSpawn extends DrySpawn {
  key: string;
  protocol: string;
  slug: string;
  cli: string;
  arm: string;
  spawn: number;
  of: number;
}

/** The whole dry run: the spawns this machine would run, of how many, and what is skipped. */
export interface DryRun {
  spawns: DryRunSpawn[];
  total: number;
  skipped: string[];
  plan: string;
}

/** Plans the run as `witness run` would and renders every spawn this machine would run. */
export async function dryRun(options: RunProtocolsOptions): Promise<DryRun> {
  const { drySpawn } = await import("../probes/dry-run.js");
  const plan = await planRun(options);
  const spawns: DryRunSpawn[] = [];
  for (const s of plan.mine) {
    const entry = plan.entries[s.entry];
    if (entry === undefined) continue;
    const launch = await drySpawn(
      s.spec,
      options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir },
    );
    spawns.push({
      key: s.key,
      protocol: entry.check.loaded.protocol.id,
      slug: entry.check.loaded.protocol.slug,
      cli: `${entry.cli.name}@${entry.cli.version}`,
      arm: s.arm.id,
      spawn: s.index,
      of: entry.spawns,
      ...launch,
    });
  }
  return { spawns, total: plan.spawns.length, skipped: plan.skipped, plan: plan.plan };
}

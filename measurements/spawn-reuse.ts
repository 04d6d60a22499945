// Whether a run takes spawns from the spawn cache, and the inputs of each planned spawn: the
// runtime is decided as the probe cell decides it (once per install and pin), the rest is known
// before any spawn.
import { randomBytes } from "node:crypto";

import type { Runtime } from "../probes/contracts/runtime.js";
import type { InstalledCli, SpawnRecord } from "./record.js";
import { readCachedSpawn, spawnCacheDir, worthFiling, writeCachedSpawn } from "./spawn-cache.js";
import { inputsHash, keyMachine, type SpawnInputs, spawnInputs } from "./spawn-key.js";
import type { PlannedSpawn, RunEntry } from "./spawn-plan.js";
import type { WitnessBuild } from "./witness-build.js";

/** A run's use of the spawn cache. */
export interface SpawnReuse {
  /** This run's id, which the spawns it files name. */
  run: string;
  /** The spawn filed under `task`'s inputs, marked reused, or null (then it runs). */
  take(task: PlannedSpawn): Promise<SpawnRecord | null>;
  /** Files a spawn this run ran (a fault, or one whose inputs are unknown, is not filed). */
  file(
    task: PlannedSpawn,
    spawn: SpawnRecord,
    times: { startedAt: string; finishedAt: string },
  ): Promise<void>;
}

/** Why a run spawns everything: null when it may reuse. */
export function reuseRefusal(options: {
  fresh?: boolean;
  keep?: boolean;
  injectedProbe: boolean;
  witness: WitnessBuild;
}): string | null {
  if (options.fresh === true) return "--fresh";
  // A kept cell is what the user asked for; a reused spawn has none.
  if (options.keep === true) return "--keep";
  // Only the real probe cell's spawns are evidence worth filing.
  if (options.injectedProbe) return "a probe other than the real cell";
  if (options.witness.commit === null) return "the witness commit is unknown";
  if (options.witness.dirty !== false) return "the witness checkout has uncommitted changes";
  return null;
}

/** A new run id: its start time and a random part. */
export function newRunId(now: Date): string {
  return `${now.toISOString()}-${randomBytes(3).toString("hex")}`;
}

/** What `startReuse` needs of the run. */
export interface ReuseContext {
  entries: readonly RunEntry[];
  installed: (entry: RunEntry) => InstalledCli | undefined;
  witness: WitnessBuild;
  cacheDir?: string;
  run: string;
  /** The runtime the probe cell picks for a bin and a pin. */
  runtimeOf: (bin: string, pin: string | undefined) => Promise<Runtime>;
  /** The variables a spawn inherits from witness's environment. */
  inherited: Record<string, string>;
  /** The compile-cache setting a spawn of `entry` on `runtime` gets. */
  compileCache: (entry: RunEntry, runtime: Runtime) => string;
}

/** The run's reuse: inputs computed per spawn on demand, runtimes once per bin and pin. */
export function startReuse(context: ReuseContext): SpawnReuse {
  const dir = spawnCacheDir(context.cacheDir);
  const machine = keyMachine();
  const runtimes = new Map<string, Promise<Runtime>>();
  const inputsOf = async (task: PlannedSpawn): Promise<SpawnInputs | null> => {
    const entry = context.entries[task.entry];
    const installed = entry === undefined ? undefined : context.installed(entry);
    if (entry === undefined || installed === undefined) return null;
    const pin = task.arm.runtime?.node;
    const at = `${installed.resolvedBin}\0${pin ?? ""}`;
    let runtime = runtimes.get(at);
    if (runtime === undefined) {
      runtime = context.runtimeOf(installed.bin, pin);
      runtimes.set(at, runtime);
    }
    const { protocol } = entry.check.loaded;
    const on = await runtime;
    return spawnInputs({
      protocol: { id: protocol.id, canonicalHash: entry.check.loaded.canonicalHash },
      arm: task.arm,
      index: task.index,
      cli: entry.cli,
      installed,
      runtime: on,
      witness: context.witness,
      machine,
      inherited: context.inherited,
      compileCache: context.compileCache(entry, on),
    });
  };
  return {
    run: context.run,
    async take(task) {
      const inputs = await inputsOf(task);
      if (inputs === null) return null;
      const hit = await readCachedSpawn(dir, inputsHash(inputs));
      if (hit === null) return null;
      return { ...hit.spawn, index: task.index, reused: hit.origin };
    },
    async file(task, spawn, times) {
      if (!worthFiling(spawn)) return;
      const inputs = await inputsOf(task);
      if (inputs === null) return;
      const origin = { run: context.run, spawn: task.key, ...times, inputs: inputsHash(inputs) };
      // A cache that cannot be written only costs a later run its spawns.
      await writeCachedSpawn(dir, { origin, inputs, spawn }).catch(() => undefined);
    },
  };
}

/** What `reuseFor` needs to decide and to start the run's reuse. */
export interface ReuseRequest {
  entries: readonly RunEntry[];
  installed: (entry: RunEntry) => InstalledCli | undefined;
  witness: WitnessBuild;
  cacheDir?: string;
  fresh?: boolean;
  keep?: boolean;
  injectedProbe: boolean;
  now: Date;
}

/** The run's reuse, with the probe cell's runtime choice and spawn environment, or why there is none. */
export async function reuseFor(
  request: ReuseRequest,
): Promise<{ reuse: SpawnReuse | null; refusal: string | null }> {
  const refusal = reuseRefusal(request);
  if (refusal !== null) return { reuse: null, refusal };
  const { runtimeFor } = await import("../probes/runtime.js");
  const { compileCacheKey } = await import("../probes/compile-cache.js");
  const { spawnPath } = await import("../probes/spawn-env.js");
  const { buildChildEnv } = await import("../core/child-env.js");
  const { cacheDir } = request;
  const reuse = startReuse({
    entries: request.entries,
    installed: request.installed,
    witness: request.witness,
    ...(cacheDir === undefined ? {} : { cacheDir }),
    run: newRunId(request.now),
    runtimeOf: async (bin, pin) =>
      (
        await runtimeFor(bin, {
          ...(cacheDir === undefined ? {} : { cacheDir }),
          ...(pin === undefined ? {} : { pin }),
        })
      ).runtime,
    inherited: buildChildEnv({
      parent: process.env,
      set: { PATH: spawnPath(process.env.PATH ?? "") },
    }),
    compileCache: (_entry, runtime) => compileCacheKey(process.env, runtime),
  });
  return { reuse, refusal: null };
}

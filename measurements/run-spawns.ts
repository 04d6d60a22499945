// The spawn step of a run: every planned spawn through one pool of `jobs`, each spawned and judged
// (runner.ts), journaled before it counts, and counted towards its arm and its entry (a protocol on
// one version), which are reported as their last spawn here finishes.
import type { Journal, JournaledSpawn } from "./journal.js";
import { runPool } from "./pool.js";
import type { SpawnRecord } from "./record.js";
import type { ArmDone, RunProtocolsOptions } from "./run-options.js";
import { assembleRecord, type ProbeFn, type RecordFrame, runSpawn } from "./runner.js";
import type { PlannedSpawn, RunEntry, Shard } from "./spawn-plan.js";
import type { SpawnReuse } from "./spawn-reuse.js";

/** Where one entry of a run stands: its record's frame and the spawns done and to come here. */
export interface EntryProgress {
  frame: RecordFrame;
  /** Spawns of the entry still to run here. */
  left: number;
  armsLeft: Map<string, number>;
  byArm: Map<string, SpawnRecord[]>;
  startedAt: string | null;
  finishedAt: string;
}

/** A run under way: each entry's progress (in the plan's order), and when each spawn ran, by key. */
export interface RunProgress {
  entries: EntryProgress[];
  times: Map<string, { startedAt: string; finishedAt: string }>;
}

/** The progress of a run about to start: per entry, its frame and the spawns it awaits here. */
export function startProgress(
  entries: readonly RunEntry[],
  mine: readonly PlannedSpawn[],
  frameOf: (entry: RunEntry) => RecordFrame,
): RunProgress {
  const progress = entries.map((entry): EntryProgress => {
    const own = mine.filter((s) => entries[s.entry] === entry);
    const armsLeft = new Map<string, number>();
    for (const s of own) armsLeft.set(s.arm.id, (armsLeft.get(s.arm.id) ?? 0) + 1);
    return {
      frame: frameOf(entry),
      left: own.length,
      armsLeft,
      byArm: new Map(),
      startedAt: null,
      finishedAt: "",
    };
  });
  return { entries: progress, times: new Map() };
}

/**
 * Counts the spawns a journal already holds as done (a resumed run spawns them not again) and
 * returns the spawns still to run.
 */
export function keepJournaled(
  mine: readonly PlannedSpawn[],
  progress: RunProgress,
  journaled: ReadonlyMap<string, JournaledSpawn>,
): PlannedSpawn[] {
  for (const s of mine) {
    const kept = journaled.get(s.key);
    const p = progress.entries[s.entry];
    if (kept === undefined || p === undefined) continue;
    p.byArm.set(s.arm.id, [...(p.byArm.get(s.arm.id) ?? []), kept.spawn]);
    p.armsLeft.set(s.arm.id, (p.armsLeft.get(s.arm.id) ?? 1) - 1);
    p.left--;
    if (p.startedAt === null || kept.startedAt < p.startedAt) p.startedAt = kept.startedAt;
    if (kept.finishedAt > p.finishedAt) p.finishedAt = kept.finishedAt;
    progress.times.set(s.key, { startedAt: kept.startedAt, finishedAt: kept.finishedAt });
  }
  return mine.filter((s) => !journaled.has(s.key));
}

/** What the spawn step works with besides the spawns and the progress. */
export interface SpawnStep {
  entries: readonly RunEntry[];
  probe: ProbeFn;
  /** Each spawn is journaled before it counts (none for a shard or a run without a journal). */
  journal: Journal | null;
  now: () => Date;
  /** Told when the last spawn of entry `e` here is done. */
  onEntryDone: (e: number) => void;
  /** The spawn cache this run takes spawns from and files its own in (none: every spawn runs). */
  reuse?: SpawnReuse | null;
}

/** Runs `todo` through one pool of `jobs`; stops starting spawns once `signal` aborts. */
export async function spawnAll(
  todo: readonly PlannedSpawn[],
  progress: RunProgress,
  step: SpawnStep,
  options: Pick<
    RunProtocolsOptions,
    "jobs" | "signal" | "keep" | "cacheDir" | "onCellKept" | "onSpawn" | "onArm" | "shard"
  >,
): Promise<void> {
  let count = 0;
  await runPool(
    todo,
    options.jobs ?? 1,
    async (task) => {
      const p = progress.entries[task.entry];
      const entry = step.entries[task.entry];
      if (p === undefined || entry === undefined) return;
      const at = step.now().toISOString();
      p.startedAt ??= at;
      const reused = (await step.reuse?.take(task)) ?? null;
      const spawn =
        reused ?? (await runSpawn(step.probe, task.spec, task.arm, task.index, options));
      const end = step.now().toISOString();
      if (reused === null) await step.reuse?.file(task, spawn, { startedAt: at, finishedAt: end });
      // Journaled before it counts: a record that cannot be written later loses no spawn.
      await step.journal?.spawn({ key: task.key, startedAt: at, finishedAt: end, spawn });
      progress.times.set(task.key, { startedAt: at, finishedAt: end });
      p.finishedAt = end;
      p.byArm.set(task.arm.id, [...(p.byArm.get(task.arm.id) ?? []), spawn]);
      options.onSpawn?.(entry.check.loaded.protocol.id, ++count, todo.length, task.arm.id);
      const armLeft = (p.armsLeft.get(task.arm.id) ?? 1) - 1;
      p.armsLeft.set(task.arm.id, armLeft);
      if (armLeft === 0) options.onArm?.(armDone(entry, task.arm.id, p, options.shard));
      if (--p.left === 0) step.onEntryDone(task.entry);
    },
    options.signal,
  );
}

/** An arm whose last spawn here finished: its statuses, and its verdict unless in a shard. */
export function armDone(
  entry: RunEntry,
  arm: string,
  p: EntryProgress,
  shard: Shard | undefined,
): ArmDone {
  const spawns = [...(p.byArm.get(arm) ?? [])].sort((a, b) => a.index - b.index);
  const { id, slug } = entry.check.loaded.protocol;
  const base = {
    protocol: id,
    slug,
    cli: `${entry.cli.name}@${entry.cli.version}`,
    arm,
    statuses: spawns.map((s) => s.status),
  };
  if (shard !== undefined) return { ...base, verdict: null, reasons: [] };
  // An arm that agrees with another is judged once that arm's spawns are in too: the record's.
  const peers = p.frame.arms.find((a) => a.id === arm)?.agreements ?? [];
  const waiting = peers
    .map(({ predicate }) => predicate.arm)
    .filter((peer) => (p.byArm.get(peer)?.length ?? 0) < entry.spawns);
  if (waiting.length > 0)
    return {
      ...base,
      verdict: null,
      reasons: [`judged in the record, once ${[...new Set(waiting)].join(", ")} has run`],
    };
  const record = assembleRecord(
    { ...p.frame, arms: p.frame.arms.filter((a) => a.id === arm) },
    p.byArm,
    { startedAt: "", finishedAt: "" },
  );
  const a = record.arms[0];
  return { ...base, verdict: a?.verdict ?? "inconclusive", reasons: a?.reasons ?? [] };
}

// The write step of a run: each protocol's record as its last spawn finishes (one at a time, in
// the order they finish; journaled, added to the ledger, compared with the committed record), or,
// for a shard, the one partial result once every spawn here is done.
import { UsageError } from "../core/errors.js";
import { errnoCode } from "../core/fs-errors.js";
import { meterWork } from "../probes/spawn-use.js";
import { compareWithCommitted } from "./committed-record.js";
import type { Journal } from "./journal.js";
import type { MeasurementRecord, SpawnRecord } from "./record.js";
import { recordInLedger } from "./run-ledger.js";
import type { ProtocolRun, RunProtocolsOptions } from "./run-options.js";
import type { RunPlan } from "./run-plan.js";
import type { EntryProgress, RunProgress } from "./run-spawns.js";
import { assembleRecord } from "./runner.js";
import { type ShardFile, writeShardFile } from "./shard-file.js";
import { entryKey, type RunEntry } from "./spawn-plan.js";
import { writeRecord, type WrittenRecord } from "./write-record.js";

/** Writes a run's records as its entries finish. */
export interface RecordWriter {
  /** Queues the record of entry `e`, whose last spawn here is done. */
  finish: (e: number) => void;
  /** Resolves once every queued record is written; rejects with the first failure. */
  written: () => Promise<void>;
  /** The records written, in the plan's order. */
  runs: () => ProtocolRun[];
}

/** What the writer needs to know of the run. */
export interface WriteStep {
  plan: RunPlan;
  progress: RunProgress;
  journal: Journal | null;
  /** Entries whose record a resumed run's journal says was written already. */
  written: ReadonlyMap<string, string> | null;
  now: () => Date;
}

/** A writer for the run's records (none is written for a shard). */
export function recordWriter(
  step: WriteStep,
  options: Pick<RunProtocolsOptions, "shard" | "writeRecord" | "ledger" | "onRecordWritten">,
): RecordWriter {
  const { plan, progress, journal } = step;
  const runs = new Map<number, ProtocolRun>();
  let writing: Promise<void> = Promise.resolve();
  const write = async (e: number, entry: RunEntry, p: EntryProgress) => {
    const record = assembleRecord(p.frame, p.byArm, {
      startedAt: p.startedAt ?? step.now().toISOString(),
      finishedAt: p.finishedAt,
    });
    let written: WrittenRecord;
    try {
      written = await meterWork("record write", () =>
        (options.writeRecord ?? writeRecord)(record, plan.out),
      );
    } catch (error) {
      const { id, slug } = entry.check.loaded.protocol;
      const kept =
        journal === null
          ? ""
          : `; its spawns are kept in ${journal.file}: once the record can be written, \`witness run --resume ${journal.file}\``;
      throw new UsageError(
        `${plan.out}: cannot write the record of ${id} ${slug} (${errnoCode(error, String(error))})${kept}`,
      );
    }
    await journal?.written(entryKey(entry), written.json);
    if (options.ledger !== undefined) await recordInLedger(options.ledger, record, written.json);
    const run: ProtocolRun = {
      file: entry.check.loaded.file,
      record,
      written,
      reproduction: await compareWithCommitted(record, plan.cwd, entry.check.counting),
    };
    runs.set(e, run);
    options.onRecordWritten?.(run);
  };
  return {
    finish: (e) => {
      const p = progress.entries[e];
      const entry = plan.entries[e];
      if (p === undefined || entry === undefined || options.shard !== undefined) return;
      // Written before an earlier attempt failed or was interrupted: not again.
      if (step.written?.has(entryKey(entry)) === true) return;
      writing = writing.then(() => write(e, entry, p));
    },
    written: () => writing,
    runs: () => [...runs].sort(([a], [b]) => a - b).map(([, run]) => run),
  };
}

/** Writes a shard's partial result: the frames of every entry and the spawns run here. */
export async function writeShard(
  step: WriteStep & { machine: MeasurementRecord["machine"]; startedAt: string },
  options: Pick<RunProtocolsOptions, "runId"> & Required<Pick<RunProtocolsOptions, "shard">>,
): Promise<{ file: string; spawns: number }> {
  const { plan, progress } = step;
  const shardFile: ShardFile = {
    schema: "witness.shard/1",
    plan: plan.plan,
    runId: options.runId ?? null,
    shard: options.shard,
    total: plan.spawns.length,
    machine: step.machine,
    startedAt: step.startedAt,
    finishedAt: step.now().toISOString(),
    entries: progress.entries.map((p, e) => ({
      key: entryKey(plan.entries[e] as RunEntry),
      header: p.frame.header,
      arms: p.frame.arms,
      selection: p.frame.selection,
      counting: [...(plan.entries[e] as RunEntry).check.counting],
    })),
    spawns: plan.mine.map((task) => {
      const record = progress.entries[task.entry]?.byArm
        .get(task.arm.id)
        ?.find((s) => s.index === task.index) as SpawnRecord;
      return {
        key: task.key,
        entry: task.entry,
        arm: task.arm.id,
        index: task.index,
        ...(progress.times.get(task.key) ?? {
          startedAt: step.startedAt,
          finishedAt: step.startedAt,
        }),
        record,
      };
    }),
  };
  const file = await writeShardFile(plan.out, shardFile);
  return { file, spawns: plan.mine.length };
}

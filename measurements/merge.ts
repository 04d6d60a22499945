// `witness merge <dirs…>`: the shards of one run back into the records a single run would have
// written (the same verdicts, the same spawn tables). Shards of different plans, runs or CLI
// installs are refused before anything is written.
import { resolve } from "node:path";

import { canonicalJson } from "../core/canonical.js";
import { DOCS } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import { compareWithCommitted } from "./committed-record.js";
import type { SpawnRecord } from "./record.js";
import { recordInLedger } from "./run-ledger.js";
import type { ProtocolRun } from "./run-protocols.js";
import { assembleRecord, type RecordFrame } from "./runner.js";
import { findShardFiles, readShardFile, type ShardEntry, type ShardFile } from "./shard-file.js";
import { ensureWritableDir, writeRecord } from "./write-record.js";

/** Options of `mergeShards`. */
export interface MergeOptions {
  cwd?: string;
  /** Records directory (default the repository's docs/measurements). */
  out?: string;
  ledger?: string;
}

// What must be equal across shards: everything of a frame but where and with what it ran.
function comparable(e: ShardEntry): string {
  const header: Partial<ShardEntry["header"]> = { ...e.header, cli: { ...e.header.cli } };
  delete header.machine;
  delete header.witness;
  if (header.cli !== undefined) delete header.cli.installed;
  return canonicalJson({ ...e, header });
}

/** The shards' files read and checked to be every part of one run; throws UsageError otherwise. */
export async function checkShards(
  paths: readonly string[],
): Promise<{ files: string[]; shards: ShardFile[] }> {
  if (paths.length === 0) throw new UsageError("name the shards' directories (or files) to merge");
  const files = await findShardFiles(paths);
  const shards: ShardFile[] = [];
  for (const file of files) shards.push(await readShardFile(file));
  const [first] = shards;
  if (first === undefined) throw new UsageError("no shard file found");
  const named = (i: number) => files[i] ?? "";
  shards.forEach((s, i) => {
    if (s.plan !== first.plan)
      throw new UsageError(
        `${named(i)} is a shard of another plan (other protocols, locks, versions, arms or spawn counts) than ${named(0)}; merge shards of one run only`,
      );
    if (s.runId !== first.runId)
      throw new UsageError(
        `${named(i)} is from run ${s.runId ?? "(no --run-id)"}, ${named(0)} from run ${first.runId ?? "(no --run-id)"}; merge shards of one run only`,
      );
    if (s.shard.count !== first.shard.count)
      throw new UsageError(
        `${named(i)} is shard ${s.shard.index}/${s.shard.count}, ${named(0)} ${first.shard.index}/${first.shard.count}: one run has one shard count`,
      );
    if (
      s.entries.length !== first.entries.length ||
      s.entries.some((e, j) => comparable(e) !== comparable(first.entries[j] as ShardEntry))
    )
      throw new UsageError(`${named(i)} describes its records differently from ${named(0)}`);
  });
  const seen = new Map<number, string>();
  shards.forEach((s, i) => {
    const other = seen.get(s.shard.index);
    if (other !== undefined)
      throw new UsageError(
        `${named(i)} and ${other} are both shard ${s.shard.index}/${s.shard.count}`,
      );
    seen.set(s.shard.index, named(i));
  });
  const missing = Array.from({ length: first.shard.count }, (_, k) => k + 1).filter(
    (k) => !seen.has(k),
  );
  if (missing.length > 0)
    throw new UsageError(
      `shard(s) ${missing.map((k) => `${k}/${first.shard.count}`).join(", ")} missing: merge needs every part of the run`,
    );
  // One install per version across the machines: a different package is a different measurement.
  first.entries.forEach((e, j) => {
    for (const [i, s] of shards.entries()) {
      const mine = s.entries[j];
      const a = e.header.cli.installed?.integrity ?? null;
      const b = mine?.header.cli.installed?.integrity ?? null;
      if (a !== null && b !== null && a !== b)
        throw new UsageError(
          `${named(i)} ran ${e.header.cli.name}@${e.header.cli.version} with integrity ${b}, ${named(0)} with ${a}: the shards ran different packages`,
        );
      const c1 = e.header.witness?.commit ?? null;
      const c2 = mine?.header.witness?.commit ?? null;
      if (c1 !== null && c2 !== null && c1 !== c2)
        throw new UsageError(
          `${named(i)} was run by witness ${c2.slice(0, 12)}, ${named(0)} by ${c1.slice(0, 12)}: merge shards of one witness commit`,
        );
    }
  });
  const keys = new Set<string>();
  for (const s of shards)
    for (const spawn of s.spawns) {
      if (keys.has(spawn.key)) throw new UsageError(`spawn ${spawn.key} is in two shards`);
      keys.add(spawn.key);
    }
  if (keys.size !== first.total)
    throw new UsageError(`the shards hold ${keys.size} spawns; the run planned ${first.total}`);
  // Shard 1's machine and install stand for the record's (every part is listed under `shards`).
  const order = shards
    .map((s, i) => ({ s, f: named(i) }))
    .sort((a, b) => a.s.shard.index - b.s.shard.index);
  return { files: order.map((o) => o.f), shards: order.map((o) => o.s) };
}

/** Merges the shards in `paths` and writes one record per protocol and version. */
export async function mergeShards(
  paths: readonly string[],
  options: MergeOptions = {},
): Promise<ProtocolRun[]> {
  const cwd = options.cwd ?? process.cwd();
  const { shards } = await checkShards(paths.map((p) => resolve(cwd, p)));
  const out =
    options.out === undefined
      ? resolve(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  await ensureWritableDir(out);
  const first = shards[0] as ShardFile;
  const runs: ProtocolRun[] = [];
  for (const [e, entry] of first.entries.entries()) {
    const byArm = new Map<string, SpawnRecord[]>();
    const times: string[] = [];
    for (const s of shards)
      for (const spawn of s.spawns.filter((x) => x.entry === e)) {
        byArm.set(spawn.arm, [...(byArm.get(spawn.arm) ?? []), spawn.record]);
        times.push(spawn.startedAt, spawn.finishedAt);
      }
    times.sort();
    const frame: RecordFrame = {
      header: entry.header,
      arms: entry.arms,
      selection: entry.selection,
    };
    const record = assembleRecord(
      frame,
      byArm,
      { startedAt: times[0] ?? first.startedAt, finishedAt: times.at(-1) ?? first.finishedAt },
      {
        count: first.shard.count,
        runId: first.runId,
        plan: first.plan,
        parts: [...shards]
          .sort((a, b) => a.shard.index - b.shard.index)
          .map((s) => ({
            index: s.shard.index,
            machine: s.machine,
            startedAt: s.startedAt,
            finishedAt: s.finishedAt,
            spawns: s.spawns.filter((x) => x.entry === e).length,
          })),
      },
    );
    const written = await writeRecord(record, out);
    if (options.ledger !== undefined) await recordInLedger(options.ledger, record, written.json);
    runs.push({
      file: entry.header.protocol.file,
      record,
      written,
      reproduction: await compareWithCommitted(record, cwd, entry.counting).catch(() => ({
        kind: "none" as const,
        why: "not in a git repository: nothing committed to compare with",
      })),
    });
  }
  return runs;
}

import { isAbsolute, join, resolve } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import { listProtocols, refuseUnlessLocked, verifyProtocols } from "../prereg/verify.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import { sameVerdicts } from "./diff.js";
import type { MeasurementRecord } from "./record.js";
import { type ProbeFn, runProtocol } from "./runner.js";
import { ensureWritableDir, readRecord, writeRecord, type WrittenRecord } from "./write-record.js";

/** Options of `runProtocols` (`witness run`). */
export interface RunProtocolsOptions {
  cwd?: string;
  /** Protocol files; empty with `all` runs every registered protocol. */
  files?: readonly string[];
  all?: boolean;
  spawns?: number;
  jobs?: number;
  keep?: boolean;
  onCellKept?: (dir: string) => void;
  /** Records directory (default the repository's docs/measurements). */
  out?: string;
  cacheDir?: string;
  cli?: CliRef;
  signal?: AbortSignal;
  probe?: ProbeFn;
  onSpawn?: (protocol: string, done: number, total: number, arm: string) => void;
}

/** One protocol's run: its record, where it went, and whether it matches the previous record. */
export interface ProtocolRun {
  file: string;
  record: MeasurementRecord;
  written: WrittenRecord;
  /** Null when there was no earlier record of the same protocol, CLI and version. */
  reproduces: boolean | null;
}

/** Checks every lock and the records directory, then runs each protocol and writes its record. */
export async function runProtocols(options: RunProtocolsOptions): Promise<ProtocolRun[]> {
  const cwd = options.cwd ?? process.cwd();
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
  const checks = await verifyProtocols({ cwd, files });
  // Refuse everything up front: a refused protocol must not leave its siblings half-run.
  checks.forEach(refuseUnlessLocked);
  const out =
    options.out === undefined
      ? join(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  await ensureWritableDir(out);
  const runs: ProtocolRun[] = [];
  for (const check of checks) {
    const record = await runProtocol(check, {
      probe: options.probe,
      cli: options.cli,
      spawns: options.spawns,
      jobs: options.jobs,
      keep: options.keep,
      onCellKept: options.onCellKept,
      cacheDir: options.cacheDir,
      signal: options.signal,
      onSpawn: (done, total, arm) => options.onSpawn?.(check.loaded.protocol.id, done, total, arm),
    });
    options.signal?.throwIfAborted();
    const written = await writeRecord(record, out);
    const reproduces =
      written.previous === null ? null : sameVerdicts(await readRecord(written.previous), record);
    runs.push({ file: check.loaded.file, record, written, reproduces });
  }
  return runs;
}

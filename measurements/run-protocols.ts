import { isAbsolute, join, resolve } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import type { LockCheck } from "../prereg/verify.js";
import { listProtocols, refuseUnlessLocked, verifyProtocols } from "../prereg/verify.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import { compareWithCommitted, type Reproduction } from "./committed-record.js";
import type { MeasurementRecord } from "./record.js";
import { type ProbeFn, runProtocol } from "./runner.js";
import { ensureWritableDir, writeRecord, type WrittenRecord } from "./write-record.js";

/** Installs every CLI version a run needs before its first spawn; throws (exit 2) on a failure. */
export type InstallFn = (refs: readonly CliRef[], cacheDir?: string) => Promise<void>;

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
  /**
   * Versions to run instead of the protocols' own: each replaces the version for the protocols of
   * its CLI; several of one CLI make a matrix; protocols of a CLI not named are skipped.
   */
  clis?: readonly CliRef[];
  signal?: AbortSignal;
  probe?: ProbeFn;
  /** The installer (default: the vendor cache, one registry query per CLI, one install per version). */
  install?: InstallFn;
  onSpawn?: (protocol: string, done: number, total: number, arm: string) => void;
  /** Told of each protocol skipped because no `--cli` names its CLI. */
  onSkip?: (line: string) => void;
}

/** One protocol's run on one version: its record, where it went, and how it compares. */
export interface ProtocolRun {
  file: string;
  record: MeasurementRecord;
  written: WrittenRecord;
  /** The comparison with the committed record of the same protocol, lock and version. */
  reproduction: Reproduction;
}

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

async function defaultInstall(refs: readonly CliRef[], cacheDir?: string): Promise<void> {
  const { installAll } = await import("../probes/vendor-registry.js");
  await installAll(refs, cacheDir === undefined ? {} : { cacheDir });
}

/**
 * Checks every lock and the records directory, installs every CLI version needed, then runs each
 * protocol on each of its versions and writes its record.
 */
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
  const { runs: planned, skipped } = planRuns(checks, options.clis);
  if (planned.length === 0)
    throw new UsageError(`no protocol to run: ${skipped.join("; ") || "none selected"}`);
  const out =
    options.out === undefined
      ? join(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  await ensureWritableDir(out);
  // Every version before the first spawn: a failed install stops the run with nothing written.
  await (options.install ?? defaultInstall)(
    planned.map((p) => p.cli),
    options.cacheDir,
  );
  for (const line of skipped) options.onSkip?.(line);
  const runs: ProtocolRun[] = [];
  for (const { check, cli } of planned) {
    const record = await runProtocol(check, {
      probe: options.probe,
      cli,
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
    runs.push({
      file: check.loaded.file,
      record,
      written,
      reproduction: await compareWithCommitted(record, cwd, check.counting),
    });
  }
  return runs;
}

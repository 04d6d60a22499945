// What `witness run` is asked (RunProtocolsOptions) and what it gives back, shared by the steps of
// the run pipeline (run-protocols.ts).
import type { CliRef } from "../probes/contracts/probe-spec.js";
import type { InstalledFacts } from "../probes/vendor-cache.js";
import type { Reproduction } from "./committed-record.js";
import type { MeasurementRecord, SpawnRecord, Verdict } from "./record.js";
import type { ProbeFn } from "./runner.js";
import type { Shard } from "./spawn-plan.js";
import type { writeRecord, WrittenRecord } from "./write-record.js";

/** Installs every CLI version a run needs before its first spawn; throws (exit 2) on a failure. */
export type InstallFn = (
  refs: readonly CliRef[],
  cacheDir?: string,
  /** Node versions arms pin (installed too, before any spawn). */
  pins?: readonly string[],
) => Promise<void>;

/** What the vendor cache says of an installed version (null when it is not installed). */
export type FactsFn = (ref: CliRef, cacheDir?: string) => Promise<InstalledFacts | null>;

/** One arm of one protocol run, finished: what a line of a non-terminal run's output says. */
export interface ArmDone {
  protocol: string;
  slug: string;
  cli: string;
  arm: string;
  /** The arm's verdict (null in a shard: its other spawns run elsewhere). */
  verdict: Verdict | null;
  /** The statuses of the spawns that ran here, in index order. */
  statuses: SpawnRecord["status"][];
  reasons: string[];
}

/** Options of `runProtocols` (`witness run`). */
export interface RunProtocolsOptions {
  cwd?: string;
  /** Protocol files; empty with `all` runs every registered protocol. */
  files?: readonly string[];
  all?: boolean;
  spawns?: number;
  jobs?: number;
  /** A spawn's time limit, stated in each record (default: the probe's, 60 s). */
  timeoutMs?: number;
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
  /** Only these arms (`arm-id`, or `0001/arm-id` for one protocol's). */
  arms?: readonly string[];
  /** Only the arms whose verdict in the newest record (in `out`) is one of these. */
  rerun?: readonly Verdict[];
  /** Run one part of the spawns and write a partial result instead of records. */
  shard?: Shard;
  /** Tells two runs of one plan apart when their shards are merged (`--run-id`). */
  runId?: string;
  signal?: AbortSignal;
  probe?: ProbeFn;
  /** The installer (default: the vendor cache, one registry query per CLI, one install per version). */
  install?: InstallFn;
  /** The installed facts a record keeps (default: the vendor cache's). */
  facts?: FactsFn;
  /** The run ledger each written record is added to (none when absent). */
  ledger?: string;
  onSpawn?: (protocol: string, done: number, total: number, arm: string) => void;
  /** Told of each arm as its last spawn here finishes. */
  onArm?: (arm: ArmDone) => void;
  /** Told after each record is written. */
  onRecordWritten?: (run: ProtocolRun) => void;
  /** Told of each protocol skipped (no `--cli` names its CLI, no arm selected). */
  onSkip?: (line: string) => void;
  now?: () => Date;
  /** Finish the run this journal holds (`witness run --resume`): only the spawns it lacks run. */
  resume?: string;
  /** Where the run's journal goes (`journalDir()` for `witness run`); none when absent. */
  journalDir?: string;
  /** Told of the run's journal once it exists, so an interrupt can name it. */
  onJournal?: (file: string) => void;
  /** The record writer (injectable: a test fills the disk). */
  writeRecord?: typeof writeRecord;
  /** Spawn everything, taking nothing from the spawn cache (`--fresh`). */
  fresh?: boolean;
  /** Where the CLIs' machine-wide managed files are looked for (tests: a temp root; default `/`). */
  managedRoot?: string;
}

/** One protocol's run on one version: its record, where it went, and how it compares. */
export interface ProtocolRun {
  file: string;
  record: MeasurementRecord;
  written: WrittenRecord;
  /** The comparison with the committed record of the same protocol, lock and version. */
  reproduction: Reproduction;
}

/** How a run ended: the records written, or the shard file, and what was skipped. */
export interface RunOutcome {
  runs: ProtocolRun[];
  /** The partial result written by a shard, and how many spawns it ran. */
  shard: { file: string; spawns: number } | null;
  skipped: string[];
}

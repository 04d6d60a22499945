// `witness watch`: for each CLI, the releases published after its newest evidence, every shipped
// protocol of that CLI run on the newest of them, each compared with the version before, and a
// flip bisected to the first release whose verdicts differ.
import { join, resolve } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import { compareVersions, inRange, isRelease } from "../core/version-order.js";
import { type LockCheck, verifyProtocols } from "../prereg/verify.js";
import type { CliRef, ProbeCliName } from "../probes/contracts/probe-spec.js";
import { bisect, defaultInstall, defaultPublished, verdictKey } from "./bisect.js";
import { diffRecords } from "./diff.js";
import { readRecordFilesIn } from "./drift.js";
import type { FactsFn, InstallFn } from "./run-options.js";
import { runProtocols } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";
import {
  planWatch,
  recordBefore,
  type RecordFile,
  sinceByCli,
  type WatchPlan,
} from "./watch-plan.js";
import { ensureWritableDir } from "./write-record.js";

/** Options of `watch`. */
export interface WatchOptions {
  cwd?: string;
  /** Only these CLIs (default: every CLI a locked protocol runs). */
  clis?: readonly ProbeCliName[];
  /** Per CLI, the version to watch from instead of its newest evidence. */
  since?: readonly CliRef[];
  /** Plan only: one registry query per CLI, nothing installed, run or written. */
  dryRun?: boolean;
  /**
   * Run a protocol even where a record of its lock exists on the version, and spawn everything,
   * taking nothing from the spawn cache.
   */
  fresh?: boolean;
  spawns?: number;
  jobs?: number;
  /** A spawn's time limit (`--timeout`), stated in each record. */
  timeoutMs?: number;
  out?: string;
  cacheDir?: string;
  signal?: AbortSignal;
  probe?: ProbeFn;
  install?: InstallFn;
  facts?: FactsFn;
  ledger?: string;
  journalDir?: string;
  /** Every published version of a CLI (default: one `npm view` per package). */
  published?: (name: ProbeCliName) => Promise<string[]>;
  /** Told of each step as it happens (a line for stderr). */
  onLine?: (line: string) => void;
}

/** An arm whose verdict differs between the version before and the watched one. */
export interface WatchFlip {
  protocol: string;
  slug: string;
  arm: string;
  before: { version: string; verdict: string; record: string };
  after: { version: string; verdict: string; record: string };
  /** The first release whose verdicts differ (bisected when releases lie between). */
  first: string;
  /** The first differing predicate, or a fault's reason, or null. */
  predicate: string | null;
}

/** One protocol's part of a watch. */
export interface WatchedProtocol {
  id: string;
  slug: string;
  /** `ran` on the watched version, `reused` (a record of its lock was there), or `planned`. */
  how: "ran" | "reused" | "planned";
  record: string | null;
  /** The record it was compared with (null: no earlier evidence of its lock). */
  comparedWith: { version: string; record: string } | null;
}

/** One CLI's part of a watch. */
export interface WatchedCli {
  cli: ProbeCliName;
  baseline: string | null;
  newer: string[];
  target: string | null;
  status: "nothing-new" | "no-protocols" | "planned" | "watched" | "could-not-install";
  /** Why it could not install (npm's line). */
  why?: string;
  protocols: WatchedProtocol[];
  flips: WatchFlip[];
}

/** Watches every CLI asked for; every registry query happens before anything is installed or run. */
export async function watch(options: WatchOptions = {}): Promise<WatchedCli[]> {
  const cwd = options.cwd ?? process.cwd();
  const out =
    options.out === undefined
      ? join(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  const checks = await verifyProtocols({ cwd });
  const shipped = [...new Set(checks.map((c) => c.loaded.protocol.cli.name))].sort();
  const names = options.clis ?? shipped;
  const since = sinceByCli(options.since ?? []);
  for (const name of since.keys())
    if (!names.includes(name))
      throw new UsageError(
        `--since ${name}@…: ${name} is not among the CLIs watched (${names.join(", ")})`,
      );
  const records = await readRecordFilesIn(out);
  const lists = await Promise.all(names.map((n) => (options.published ?? defaultPublished)(n)));
  const plans = names.map((name, i) =>
    planWatch(name, checks, records, lists[i] ?? [], {
      ...(since.has(name) ? { since: since.get(name) } : {}),
      fresh: options.fresh === true,
    }),
  );
  if (options.dryRun === true) return plans.map((p) => planned(p, records));
  await ensureWritableDir(out);
  const result: WatchedCli[] = [];
  for (const plan of plans) {
    options.signal?.throwIfAborted();
    result.push(await watchOne(plan, records, lists[names.indexOf(plan.cli)] ?? [], out, options));
  }
  return result;
}

function status(plan: WatchPlan): WatchedCli["status"] | null {
  if (plan.target === null) return "nothing-new";
  if (plan.protocols.length === 0) return "no-protocols";
  return null;
}

function planned(plan: WatchPlan, records: readonly RecordFile[]): WatchedCli {
  const protocols = plan.protocols.map((check) => {
    const reused = plan.reused.get(check.loaded.protocol.id);
    const before = plan.target === null ? undefined : recordBefore(records, check, plan.target);
    return {
      ...protocolOf(check),
      how: reused === undefined ? ("planned" as const) : ("reused" as const),
      record: reused?.file ?? null,
      comparedWith:
        before === undefined ? null : { version: before.record.cli.version, record: before.file },
    };
  });
  return {
    ...frame(plan),
    status: status(plan) ?? "planned",
    protocols: plan.target === null ? [] : protocols,
    flips: [],
  };
}

const frame = (plan: WatchPlan) => ({
  cli: plan.cli,
  baseline: plan.baseline,
  newer: plan.newer,
  target: plan.target,
});

const protocolOf = (check: LockCheck) => ({
  id: check.loaded.protocol.id,
  slug: check.loaded.protocol.slug,
});

async function watchOne(
  plan: WatchPlan,
  records: readonly RecordFile[],
  published: readonly string[],
  out: string,
  options: WatchOptions,
): Promise<WatchedCli> {
  const early = status(plan);
  if (early !== null || plan.target === null)
    return { ...frame(plan), status: early ?? "nothing-new", protocols: [], flips: [] };
  const cli = { name: plan.cli, version: plan.target };
  const toRun = plan.protocols.filter((c) => !plan.reused.has(c.loaded.protocol.id));
  const pins = toRun.flatMap((c) =>
    c.loaded.protocol.arms.flatMap((a) => (a.runtime ? [a.runtime.node] : [])),
  );
  const install = options.install ?? defaultInstall;
  try {
    if (toRun.length > 0) await install([cli], options.cacheDir, pins);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    options.onLine?.(`${plan.cli}@${plan.target}: could not install (${error.message})`);
    return {
      ...frame(plan),
      status: "could-not-install",
      why: error.message,
      protocols: [],
      flips: [],
    };
  }
  const ran = new Map<string, RecordFile>();
  if (toRun.length > 0) {
    const runs = await runProtocols({
      cwd: options.cwd,
      files: toRun.map((c) => c.loaded.file),
      clis: [cli],
      out,
      spawns: options.spawns,
      jobs: options.jobs,
      cacheDir: options.cacheDir,
      signal: options.signal,
      probe: options.probe,
      fresh: options.fresh,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      // Installed above, with every pin, so a failed install is this CLI's alone.
      install: () => Promise.resolve(),
      facts: options.facts,
      ledger: options.ledger,
      journalDir: options.journalDir,
      onRecordWritten: (run) =>
        options.onLine?.(
          `${plan.cli}@${plan.target}: ${run.record.protocol.id} ${run.record.verdict}`,
        ),
    });
    for (const run of runs)
      ran.set(run.record.protocol.id, { file: run.written.json, record: run.record });
  }
  const protocols: WatchedProtocol[] = [];
  const flips: WatchFlip[] = [];
  for (const check of plan.protocols) {
    const id = check.loaded.protocol.id;
    const after = ran.get(id) ?? plan.reused.get(id);
    const before = recordBefore(records, check, plan.target);
    protocols.push({
      ...protocolOf(check),
      how: ran.has(id) ? "ran" : "reused",
      record: after?.file ?? null,
      comparedWith:
        before === undefined ? null : { version: before.record.cli.version, record: before.file },
    });
    if (after === undefined || before === undefined) continue;
    if (verdictKey(before.record) === verdictKey(after.record)) continue;
    flips.push(...(await flipsOf(check, before, after, published, out, options)));
  }
  return { ...frame(plan), status: "watched", protocols, flips };
}

// The arms whose verdicts differ, each located at its first release by bisection when releases
// lie between the two records (the records at both ends are reused, not run again).
async function flipsOf(
  check: LockCheck,
  before: RecordFile,
  after: RecordFile,
  published: readonly string[],
  out: string,
  options: WatchOptions,
): Promise<WatchFlip[]> {
  const from = before.record.cli.version;
  const to = after.record.cli.version;
  const between = published.filter(
    (v) =>
      isRelease(v) && v !== from && v !== to && inRange(v, from, to) && compareVersions(v, to) < 0,
  );
  let first = to;
  let firstPredicate: string | null = null;
  if (between.length > 0) {
    options.onLine?.(
      `${check.loaded.protocol.id}: verdicts differ between ${from} and ${to}; bisecting ${between.length} releases between`,
    );
    const found = await bisect({
      cwd: options.cwd,
      file: check.loaded.file,
      range: { name: check.loaded.protocol.cli.name, from, to },
      spawns: options.spawns,
      jobs: options.jobs,
      out,
      cacheDir: options.cacheDir,
      signal: options.signal,
      probe: options.probe,
      fresh: options.fresh,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      install: options.install,
      facts: options.facts,
      published: () => Promise.resolve([...published]),
      known: new Map([
        [from, { record: before.record, json: before.file }],
        [to, { record: after.record, json: after.file }],
      ]),
      onSkip: (version, why) => options.onLine?.(`${version}: skipped, it cannot be run (${why})`),
    });
    first = found.flip?.after.version ?? to;
    firstPredicate = found.flip?.predicate ?? null;
  }
  return diffRecords(before.record, after.record)
    .filter((d) => d.verdictChanged)
    .map((d) => ({
      protocol: check.loaded.protocol.id,
      slug: check.loaded.protocol.slug,
      arm: d.arm,
      before: { version: from, verdict: d.before, record: before.file },
      after: { version: to, verdict: d.after, record: after.file },
      first,
      predicate:
        firstPredicate ??
        d.predicates[0] ??
        d.faulted.find((f) => f.side === "after")?.reasons[0] ??
        null,
    }));
}

// `witness bisect`: the first published version whose verdicts differ from the range's start,
// by binary search over the published versions, installing and running only those it visits.
import { isAbsolute, join, resolve } from "node:path";

import { DOCS } from "../core/doc-paths.js";
import { UsageError } from "../core/errors.js";
import { repoRoot } from "../core/git.js";
import { inRange, isRelease } from "../core/version-order.js";
import { refuseUnlessLocked, verifyProtocols } from "../prereg/verify.js";
import type { CliRange, CliRef } from "../probes/contracts/probe-spec.js";
import type { InstalledFacts } from "../probes/vendor-cache.js";
import { diffRecords } from "./diff.js";
import type { MeasurementRecord } from "./record.js";
import { installedCli } from "./run-install.js";
import type { FactsFn, InstallFn } from "./run-options.js";
import { runProtocol } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";
import { ensureWritableDir, writeRecord } from "./write-record.js";

/** Options of `bisect`. */
export interface BisectOptions {
  cwd?: string;
  /** The protocol file. */
  file: string;
  range: CliRange;
  spawns?: number;
  jobs?: number;
  out?: string;
  cacheDir?: string;
  signal?: AbortSignal;
  probe?: ProbeFn;
  install?: InstallFn;
  /** The installed facts each record keeps (default: the vendor cache's). */
  facts?: FactsFn;
  /** Every published version of the range's CLI (default: one `npm view` query). */
  published?: (name: CliRef["name"]) => Promise<string[]>;
  /** Told after each version it ran: the version, its record file and its overall verdict. */
  onVisit?: (version: string, json: string, verdict: string) => void;
  /** Told of each version inside the range it skipped, and why (its install failed). */
  onSkip?: (version: string, why: string) => void;
  /** Records already written of this protocol's lock, by version: used instead of a run there. */
  known?: ReadonlyMap<string, { record: MeasurementRecord; json: string }>;
  /** Spawn everything, taking nothing from the spawn cache. */
  fresh?: boolean;
  /** A spawn's time limit (`--timeout`), stated in each record. */
  timeoutMs?: number;
}

/** The first arm whose verdict differs between the two sides of the flip, and why. */
export interface Flip {
  before: { version: string; record: string };
  after: { version: string; record: string };
  arm: string;
  verdicts: { before: string; after: string };
  /** The first predicate whose pass rate differs, or the first fault reason, or null. */
  predicate: string | null;
}

/** What a bisection found: the candidates, the versions run, and the flip (null: none in range). */
export interface BisectResult {
  candidates: string[];
  visited: { version: string; record: string; verdict: string }[];
  /** Versions inside the range that could not be installed or started (a broken release), skipped. */
  skipped: { version: string; why: string }[];
  flip: Flip | null;
}

/** An arm-by-arm verdict key: two records with equal keys have the same verdicts. */
export const verdictKey = (r: MeasurementRecord) =>
  r.arms.map((a) => `${a.id}=${a.verdict}`).join(" ");

/** Every published version of a CLI: one registry query per package. */
export async function defaultPublished(name: CliRef["name"]): Promise<string[]> {
  const { publishedVersions } = await import("../probes/vendor-registry.js");
  return publishedVersions(name);
}

/** Installs versions (and pinned Node runtimes) into the vendor cache. */
export async function defaultInstall(
  refs: readonly CliRef[],
  cacheDir?: string,
  pins: readonly string[] = [],
): Promise<void> {
  const { installAll } = await import("../probes/vendor-registry.js");
  await installAll(refs, { ...(cacheDir === undefined ? {} : { cacheDir }), pins });
}

async function defaultFacts(ref: CliRef, cacheDir?: string): Promise<InstalledFacts | null> {
  const { installedFacts } = await import("../probes/vendor-cache.js");
  return installedFacts(ref, cacheDir === undefined ? {} : { cacheDir });
}

/** The published releases from `from` to `to`, both ends included; both ends must be published. */
export async function candidateVersions(
  range: CliRange,
  published: (name: CliRef["name"]) => Promise<string[]>,
): Promise<string[]> {
  const { requirePublished } = await import("../probes/vendor-registry.js");
  const all = await published(range.name);
  requirePublished({ name: range.name, version: range.from }, all);
  requirePublished({ name: range.name, version: range.to }, all);
  return all.filter(
    (v) => v === range.from || v === range.to || (isRelease(v) && inRange(v, range.from, range.to)),
  );
}

/** The index between `lo` and `hi` (exclusive) nearest their middle and not `bad`; null: none. */
export function middle(lo: number, hi: number, bad: ReadonlySet<number>): number | null {
  const mid = (lo + hi) >> 1;
  for (let d = 0; d < hi - lo; d++)
    for (const i of [mid - d, mid + d]) if (i > lo && i < hi && !bad.has(i)) return i;
  return null;
}

/** Bisects `range` for the first version whose arm verdicts differ from `range.from`'s. */
export async function bisect(options: BisectOptions): Promise<BisectResult> {
  const cwd = options.cwd ?? process.cwd();
  const file = isAbsolute(options.file) ? options.file : resolve(cwd, options.file);
  const [check] = await verifyProtocols({ cwd, files: [file] });
  if (check === undefined) throw new UsageError(`${options.file}: no such protocol`);
  refuseUnlessLocked(check);
  const own = check.loaded.protocol.cli.name;
  if (own !== options.range.name)
    throw new UsageError(
      `${options.file}: protocol ${check.loaded.protocol.id} runs ${own}, not ${options.range.name}`,
    );
  const candidates = await candidateVersions(options.range, options.published ?? defaultPublished);
  const out =
    options.out === undefined
      ? join(await repoRoot(cwd), DOCS.measurements)
      : resolve(cwd, options.out);
  await ensureWritableDir(out);
  const install = options.install ?? defaultInstall;
  const pins = check.loaded.protocol.arms.flatMap((a) => (a.runtime ? [a.runtime.node] : []));
  const visited: BisectResult["visited"] = [];
  const runs = new Map<string, { record: MeasurementRecord; json: string }>();
  const runAt = async (version: string) => {
    const had = options.known?.get(version);
    if (had !== undefined) {
      runs.set(version, had);
      visited.push({ version, record: had.json, verdict: had.record.verdict });
      return had.record;
    }
    const cli = { name: options.range.name, version };
    await install([cli], options.cacheDir, pins);
    const installed = await (options.facts ?? defaultFacts)(cli, options.cacheDir);
    const record = await runProtocol(check, {
      ...(installed === null ? {} : { installed: installedCli(installed) }),
      cli,
      probe: options.probe,
      spawns: options.spawns,
      jobs: options.jobs,
      cacheDir: options.cacheDir,
      signal: options.signal,
      fresh: options.fresh,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    options.signal?.throwIfAborted();
    const { json } = await writeRecord(record, out);
    runs.set(version, { record, json });
    visited.push({ version, record: json, verdict: record.verdict });
    options.onVisit?.(version, json, record.verdict);
    return record;
  };
  const first = await runAt(options.range.from);
  const last = await runAt(options.range.to);
  const skipped: BisectResult["skipped"] = [];
  if (verdictKey(first) === verdictKey(last)) return { candidates, visited, skipped, flip: null };
  // Invariant: candidates[lo] has `from`'s verdicts, candidates[hi] does not. A version between
  // them that cannot be installed or started (pi 0.80.7's --version dies on an import) is skipped
  // and the nearest other one to the middle tried, as git bisect skip does.
  let lo = 0;
  let hi = candidates.length - 1;
  const bad = new Set<number>();
  for (;;) {
    const mid = middle(lo, hi, bad);
    if (mid === null) break;
    let record: MeasurementRecord;
    try {
      record = await runAt(candidates[mid] ?? "");
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      bad.add(mid);
      skipped.push({ version: candidates[mid] ?? "", why: error.message });
      options.onSkip?.(candidates[mid] ?? "", error.message);
      continue;
    }
    if (verdictKey(record) === verdictKey(first)) lo = mid;
    else hi = mid;
  }
  const before = runs.get(candidates[lo] ?? "");
  const after = runs.get(candidates[hi] ?? "");
  if (before === undefined || after === undefined)
    return { candidates, visited, skipped, flip: null };
  const arm = diffRecords(before.record, after.record).find((d) => d.verdictChanged);
  const fault = arm?.faulted.find((f) => f.side === "after")?.reasons[0];
  return {
    candidates,
    visited,
    skipped,
    flip: {
      before: { version: before.record.cli.version, record: before.json },
      after: { version: after.record.cli.version, record: after.json },
      arm: arm?.arm ?? "",
      verdicts: { before: arm?.before ?? "", after: arm?.after ?? "" },
      predicate: arm?.predicates[0] ?? fault ?? null,
    },
  };
}

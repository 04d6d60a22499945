// One spawn's file trace: where strace writes it (a directory of witness's own, outside the
// cell), and what the observation states from it afterwards.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

import { factsOf } from "../../clis/facts-by-cli.js";
import type { CliName } from "../../clis/names.js";
import type { Cell } from "../cell/cell.js";
import type { Observation } from "../contracts/observation.js";
import { instructionReads } from "./file-reads.js";
import { openedForReading, straceBinary } from "./file-trace.js";

/** A trace being taken (`file` absent: tracing is unavailable, `why` says so). */
export interface Tracing {
  strace: string;
  file?: string;
  why?: string;
  /** The cell's files just before the spawn (cell-relative): a read of any other, the CLI made. */
  before?: Set<string>;
  dispose: () => Promise<void>;
}

/** Prepares a trace file outside any cell, or says why this machine cannot trace. */
export async function startTrace(): Promise<Tracing> {
  const strace = straceBinary();
  if (strace === null)
    return { strace: "", why: "no strace on this machine", dispose: () => Promise.resolve() };
  const dir = await mkdtemp(join(tmpdir(), "witness-trace-"));
  return {
    strace,
    file: join(dir, "trace"),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The most entries a cell listing walks: a bound, named when reached. */
const MAX_LISTED = 50_000;

/** The cell's files, cell-relative, without following links; null past the bound. */
export async function listCell(root: string): Promise<Set<string> | null> {
  const out = new Set<string>();
  const queue = [root];
  for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) queue.push(abs);
      else out.add(relative(root, abs));
      if (out.size > MAX_LISTED) return null;
    }
  }
  return out;
}

/** The observation's `fileTrace` and `fileReads` from a finished spawn's trace. */
export async function tracedReads(
  tracing: Tracing,
  cell: Cell,
  markers: Observation["markers"],
  cli: CliName,
): Promise<Pick<Observation, "fileTrace" | "fileReads">> {
  if (tracing.file === undefined)
    return { fileTrace: { unavailable: tracing.why ?? "tracing unavailable" } };
  const text = await readFile(tracing.file, "utf8").catch(() => null);
  if (text === null) return { fileTrace: { unavailable: "strace wrote no trace" } };
  const { paths, relative: unresolved, programs } = openedForReading(text);
  const reads = instructionReads(paths, cell.root, markers, factsOf(cli), programs);
  // A file the CLI made during the spawn (its own session, skills it unpacked) is its output.
  const before = tracing.before;
  const kept =
    before === undefined
      ? reads
      : reads.filter((r) => r.path.startsWith("/") || before.has(r.path));
  return {
    fileTrace: {
      by: "strace",
      opened: paths.length,
      relative: unresolved,
      madeBySpawn: reads.length - kept.length,
    },
    fileReads: kept,
  };
}

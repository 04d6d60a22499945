// `witness run --resume <journal>`: the run a journal holds, planned again from its header, with
// the spawns it already ran and the records it already wrote.
import { resolve } from "node:path";

import { UsageError } from "../core/errors.js";
import { cliRefSchema } from "../probes/contracts/probe-spec.js";
import { journalDir, type ReadJournal, readJournal } from "./journal.js";
import type { RunProtocolsOptions } from "./run-options.js";
import type { RunPlan } from "./run-plan.js";

/** A journal read back, and the options of the run it holds. */
export type ResumedRun = ReadJournal & { options: RunProtocolsOptions };

/** The run's own options, from the journal's header; nothing else may be named. */
export async function resumeRun(given: RunProtocolsOptions): Promise<ResumedRun> {
  const cwd = given.cwd ?? process.cwd();
  const named = [
    given.all === true || (given.files ?? []).length > 0 ? "protocols or --all" : null,
    given.clis === undefined ? null : "--cli",
    given.arms === undefined ? null : "--arm",
    given.rerun === undefined ? null : "--rerun",
    given.shard === undefined ? null : "--shard",
    given.spawns === undefined ? null : "--spawns",
    given.timeoutMs === undefined ? null : "--timeout",
    given.out === undefined ? null : "--out",
  ].filter((x) => x !== null);
  if (named.length > 0)
    throw new UsageError(
      `--resume finishes the run its journal holds, as it was planned: drop ${named.join(", ")}`,
    );
  // The key comes from this invocation's state directory, never from beside the journal named.
  const dir = given.journalDir ?? journalDir(process.env, given.cacheDir);
  const read = await readJournal(resolve(cwd, given.resume ?? ""), dir);
  const { header } = read;
  const options: RunProtocolsOptions = {
    ...given,
    cwd: header.cwd,
    files: header.files,
    all: false,
    out: header.out,
    ...(header.spawns === undefined ? {} : { spawns: header.spawns }),
    ...(header.timeoutMs === undefined ? {} : { timeoutMs: header.timeoutMs }),
    ...(header.clis === undefined ? {} : { clis: header.clis.map((c) => cliRefSchema.parse(c)) }),
    ...(header.arms === undefined ? {} : { arms: header.arms }),
  };
  return { ...read, options };
}

/** Refuses to resume a run whose plan changed since its journal began (exit 2). */
export function refuseChangedPlan(resumed: ResumedRun, plan: RunPlan): void {
  if (plan.plan !== resumed.header.plan)
    throw new UsageError(
      `${resumed.journal.file}: the run it holds no longer plans the same (a protocol or its lock changed since ${resumed.header.startedAt}); run it anew`,
    );
}

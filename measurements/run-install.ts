// Before the first spawn of a run: the machine can honour every arm's `managed` setting, every CLI
// version is installed, and what the vendor cache knows of each install is at hand for the records.
import { firstLine } from "../core/error-text.js";
import { UsageError } from "../core/errors.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import type { InstalledFacts } from "../probes/vendor-cache.js";
import type { InstalledCli } from "./record.js";
import type { FactsFn, InstallFn } from "./run-options.js";
import type { RunEntry } from "./spawn-plan.js";

async function defaultInstall(
  refs: readonly CliRef[],
  cacheDir?: string,
  pins: readonly string[] = [],
): Promise<void> {
  const { installAll } = await import("../probes/vendor-registry.js");
  await installAll(refs, { ...(cacheDir === undefined ? {} : { cacheDir }), pins });
}

/** What a record keeps of the vendor cache's facts about an install. */
export function installedCli(f: InstalledFacts): InstalledCli {
  return {
    pkg: f.pkg,
    bin: f.bin,
    resolvedBin: f.resolvedBin,
    integrity: f.integrity,
    packages: f.packages,
    // A stand-in entry ran: the record says so, so nothing passes it off as the package.
    ...(f.standIn === undefined ? {} : { standIn: f.standIn }),
  };
}

async function defaultFacts(ref: CliRef, cacheDir?: string): Promise<InstalledFacts | null> {
  const { installedFacts } = await import("../probes/vendor-cache.js");
  return installedFacts(ref, cacheDir === undefined ? {} : { cacheDir });
}

/** The key of an installed version in `installedVersions`' map. */
export const versionKey = (cli: CliRef) => `${cli.name}@${cli.version}`;

/**
 * Refuses the whole run (exit 2) when an arm's `managed` setting cannot be honoured here: a spawn
 * refused later would only be a fault.
 */
export async function refuseManagedArms(
  entries: readonly RunEntry[],
  root?: string,
): Promise<void> {
  const asking = entries.flatMap((e) =>
    e.arms
      .filter((a) => (a.fixture.managed ?? "record") !== "record")
      .map((a) => ({ entry: e, arm: a })),
  );
  if (asking.length === 0) return;
  const { checkManaged } = await import("../probes/run-probe.js");
  for (const { entry, arm } of asking) {
    try {
      await checkManaged(
        entry.cli.name,
        arm.fixture.managed ?? "record",
        root === undefined ? {} : { root },
      );
    } catch (error) {
      const { id } = entry.check.loaded.protocol;
      throw new UsageError(`${entry.check.loaded.file}: arm ${id}/${arm.id}: ${firstLine(error)}`);
    }
  }
}

/** Installs every version the entries run, all before the first spawn (a failure stops the run). */
export async function installVersions(
  entries: readonly RunEntry[],
  install: InstallFn | undefined,
  cacheDir: string | undefined,
): Promise<void> {
  await (install ?? defaultInstall)(
    entries.map((e) => e.cli),
    cacheDir,
    entries.flatMap((e) =>
      e.arms.flatMap((a) => (a.runtime === undefined ? [] : [a.runtime.node])),
    ),
  );
}

/** What the vendor cache says of each installed version (`versionKey`), for the records. */
export async function installedVersions(
  entries: readonly RunEntry[],
  facts: FactsFn | undefined,
  cacheDir: string | undefined,
): Promise<Map<string, InstalledCli>> {
  const out = new Map<string, InstalledCli>();
  for (const { cli } of entries) {
    const key = versionKey(cli);
    if (out.has(key)) continue;
    const f = await (facts ?? defaultFacts)(cli, cacheDir);
    if (f !== null) out.set(key, installedCli(f));
  }
  return out;
}

// A record's CLI version against what its spawns observably ran: a record of 2.1.282 relabelled
// 2.1.332 still names the 2.1.282 install in every spawn's argv and in its install facts.
import type { MeasurementRecord } from "./record.js";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// The versions a path names as a vendor-cache entry of `cli` (`…/claude-code@2.1.282/…`).
function cacheVersions(path: string, cli: string): string[] {
  const entry = new RegExp(`(?:^|/)${escapeRegExp(cli)}@([^/]+)/`, "g");
  return [...path.matchAll(entry)].map((m) => m[1] ?? "");
}

/**
 * Every way the record's observed facts disagree with its CLI version: the versions the spawns
 * reported, the install each spawn's argv started, and the install the record names.
 */
export function installFactProblems(record: MeasurementRecord): string[] {
  const { name, version } = record.cli;
  const problems: string[] = [];
  const other = record.cli.versionsRun.filter((v) => v !== version);
  if (other.length > 0)
    problems.push(`cli.versionsRun: expected only ${version}; got ${other.join(", ")}`);
  const installed = record.cli.installed;
  if (installed !== undefined) {
    for (const field of ["bin", "resolvedBin"] as const) {
      const named = cacheVersions(installed[field], name).filter((v) => v !== version);
      if (named.length > 0)
        problems.push(
          `cli.installed.${field}: expected the ${name}@${version} install; got ${installed[field]}`,
        );
    }
    const pkg = installed.packages.find((p) => p.name === installed.pkg);
    if (pkg !== undefined && pkg.version !== version)
      problems.push(`cli.installed.packages: ${pkg.name} is ${pkg.version}, expected ${version}`);
  }
  for (const arm of record.arms) {
    arm.spawns.forEach((spawn, i) => {
      const argv = spawn.observation?.argv ?? [];
      const ran = argv.flatMap((a) => cacheVersions(a, name)).filter((v) => v !== version);
      if (ran.length > 0)
        problems.push(
          `arm ${arm.id} spawn ${i + 1}: observation.argv: expected the ${name}@${version} install; it ran ${name}@${ran[0] ?? ""}`,
        );
    });
  }
  return problems;
}

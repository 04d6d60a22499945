// What the npm registry has published of each CLI: one `npm view` per package, through the one
// exec seam; a version never published is refused before anything is installed.
import { cliRow, packageFor, packagesOf } from "../clis/names.js";
import { UsageError } from "../core/errors.js";
import { compareVersions, inRange, isRelease } from "../core/version-order.js";
import type { CliRef } from "./contracts/probe-spec.js";
import { ensureNode } from "./node-runtimes.js";
import { publishedVersionsOf } from "./npm.js";
import { runtimeFor } from "./runtime.js";
import { ensureCli, isCached, type VendorCacheOptions } from "./vendor-cache.js";

/**
 * Every version of `name` npm has published, in npm's order: one registry query per package the
 * CLI was published under (pi moved from `@mariozechner/…` to `@earendil-works/…`).
 */
export async function publishedVersions(
  name: CliRef["name"],
  options: VendorCacheOptions = {},
): Promise<string[]> {
  const lists = await Promise.all(packagesOf(name).map((pkg) => packageVersions(pkg, options)));
  return [...new Set(lists.flat())].sort(compareVersions);
}

async function packageVersions(pkg: string, options: VendorCacheOptions): Promise<string[]> {
  return (await publishedVersionsOf(pkg, options.env ?? process.env)).sort(compareVersions);
}

/** The published releases just before and just after `version` (either may be absent). */
export function nearestPublished(version: string, published: readonly string[]): string[] {
  const releases = published.filter(isRelease);
  const below = releases.filter((v) => compareVersions(v, version) < 0).at(-1);
  const above = releases.find((v) => compareVersions(v, version) > 0);
  return [below, above].filter((v): v is string => v !== undefined);
}

/**
 * Fails (exit 2) naming the nearest published versions unless `ref.version` was published. A CLI
 * published under several names (pi) gets the nearest under each name, told apart by the
 * catalog's version ranges (the names never published one version twice).
 */
export function requirePublished(ref: CliRef, published: readonly string[]): void {
  if (published.includes(ref.version)) return;
  const packages = packagesOf(ref.name);
  if (packages.length <= 1) {
    const near = nearestPublished(ref.version, published);
    const hint = near.length === 0 ? "" : `; nearest published: ${near.join(", ")}`;
    throw new UsageError(
      `${ref.name}@${ref.version} was never published (${packages.join("")})${hint}`,
    );
  }
  const each = packages.map((pkg) => {
    const mine = published.filter((v) => packageFor(ref.name, v) === pkg);
    const near = nearestPublished(ref.version, mine);
    return `under ${pkg}: ${near.length === 0 ? "none" : near.join(", ")}`;
  });
  throw new UsageError(
    `${ref.name}@${ref.version} was never published (${packages.join(" or ")}); nearest published ${each.join("; ")}`,
  );
}

/**
 * Fails (exit 2) unless the CLI's driver drives `ref.version` (the catalog's `drives`), naming the
 * range, why, and the published versions nearest to it that it drives.
 */
export function requireDriven(ref: CliRef, published: readonly string[]): void {
  const row = cliRow(ref.name);
  const drives = row.drives;
  if (drives === undefined || inRange(ref.version, drives.from)) return;
  const near = nearestPublished(
    ref.version,
    published.filter((v) => inRange(v, drives.from)),
  );
  const hint = near.length === 0 ? "none published yet" : near.join(", ");
  throw new UsageError(
    `${ref.name}@${ref.version} is not driven: the ${row.display} driver drives ${drives.from} and later (${drives.why}); nearest published it drives: ${hint}`,
  );
}

/** The npm package holding a CLI's native program (`node_modules/<pkg>/…` of its nativeBin). */
export function nativePackage(name: CliRef["name"]): string | null {
  const bin = cliRow(name).nativeBin;
  const match = bin === undefined ? null : /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(bin);
  return match?.[1] ?? null;
}

/**
 * Fails (exit 2) when the CLI runs a native program from a platform package and that package was
 * never published at `ref.version` (npm would install the loader without it), naming the nearest
 * versions that have it; `lists` holds the platform package's versions once asked.
 */
async function requireNativeProgram(
  ref: CliRef,
  published: readonly string[],
  lists: Map<string, string[]>,
  options: VendorCacheOptions,
): Promise<void> {
  const pkg = nativePackage(ref.name);
  if (pkg === null) return;
  let native = lists.get(pkg);
  if (native === undefined) {
    native = await packageVersions(pkg, options);
    lists.set(pkg, native);
  }
  if (native.includes(ref.version)) return;
  const near = nearestPublished(
    ref.version,
    published.filter((v) => native.includes(v)),
  );
  const hint = near.length === 0 ? "none" : near.join(", ");
  throw new UsageError(
    `${ref.name}@${ref.version} has no linux-x64 program: ${pkg} was never published at ${ref.version}; nearest published with it: ${hint}`,
  );
}

/**
 * Resolves and installs every CLI version a run needs, one install per version, before any
 * spawn: a version not in the cache is checked against the registry's list first (one query per
 * CLI), and against the versions its driver drives and its native program's package (one more
 * query per such CLI), then installed, and so is the Node each runs on (its declared one, and every Node an arm
 * pins: `pins`). The first failure stops everything (exit 2) with npm's one line.
 */
export async function installAll(
  refs: readonly CliRef[],
  options: VendorCacheOptions & { pins?: readonly string[] } = {},
): Promise<Map<string, { bin: string; version: string }>> {
  const unique = [...new Map(refs.map((r) => [`${r.name}@${r.version}`, r])).values()];
  const lists = new Map<CliRef["name"], string[]>();
  const nativeLists = new Map<string, string[]>();
  const missing: CliRef[] = [];
  for (const ref of unique) if (!(await isCached(ref, options))) missing.push(ref);
  for (const ref of missing) {
    let published = lists.get(ref.name);
    if (published === undefined) {
      published = await publishedVersions(ref.name, options);
      lists.set(ref.name, published);
    }
    requirePublished(ref, published);
    requireDriven(ref, published);
    await requireNativeProgram(ref, published, nativeLists, options);
  }
  const installed = new Map<string, { bin: string; version: string }>();
  for (const ref of unique) {
    const cli = await ensureCli(ref, options);
    installed.set(`${ref.name}@${ref.version}`, cli);
    await runtimeFor(cli.bin, options);
  }
  for (const pin of new Set(options.pins ?? [])) await ensureNode(pin, options);
  return installed;
}

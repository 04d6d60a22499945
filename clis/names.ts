// The name types, lists and schemas every folder uses, derived from the catalog (never written out).
import { z } from "zod";

import { compareVersions } from "../core/version-order.js";
import { CLI_CATALOG, type CliRow, type PackageRange } from "./catalog.js";

type Catalog = typeof CLI_CATALOG;
type With<K extends "probe" | "transcript" | "adapter"> = {
  [N in keyof Catalog]: Catalog[N][K] extends true ? N : never;
}[keyof Catalog];

/** Every CLI witness knows of (the ambient support table rules on each). */
export type CliName = keyof Catalog;
/** A CLI witness can install, run and observe (it has a probe driver). */
export type ProbeCliName = With<"probe">;
/** A CLI whose sessions `witness transcript` reads. */
export type TranscriptCliName = With<"transcript">;
/** A CLI the reference orchestrator renders a launch for. */
export type AdapterName = With<"adapter">;

/** The row of a CLI. */
export function cliRow(name: CliName): CliRow {
  return CLI_CATALOG[name];
}

function having(key: "probe" | "transcript" | "adapter"): string[] {
  return Object.entries(CLI_CATALOG as Record<string, CliRow>)
    .filter(([, row]) => row[key] === true)
    .map(([name]) => name);
}

/** Every name, in catalog order. */
export const CLI_NAMES = Object.keys(CLI_CATALOG) as [CliName, ...CliName[]];
/** The CLIs with a probe driver, in catalog order. */
export const PROBE_CLI_NAMES = having("probe") as [ProbeCliName, ...ProbeCliName[]];
/** The CLIs with a session reader, in catalog order. */
export const TRANSCRIPT_CLI_NAMES = having("transcript") as [
  TranscriptCliName,
  ...TranscriptCliName[],
];
/** The CLIs the reference orchestrator renders, in catalog order. */
export const ADAPTER_NAMES = having("adapter") as [AdapterName, ...AdapterName[]];

const oneOf = (names: readonly string[]) => `expected one of ${names.join(", ")}`;

/** A CLI name in a protocol or a probe spec: a canonical name with a driver. */
export const probeCliNameSchema = z.enum(PROBE_CLI_NAMES);
/** An adapter in a node spec. */
export const adapterSchema = z.enum(ADAPTER_NAMES, { error: oneOf(ADAPTER_NAMES) });

/** True when `name` has a probe driver. */
export function isProbeCli(name: string): name is ProbeCliName {
  return (PROBE_CLI_NAMES as readonly string[]).includes(name);
}

/** The canonical name with a driver for a name or an alias (case-insensitive); null otherwise. */
export function canonicalCliName(text: string): ProbeCliName | null {
  const wanted = text.trim().toLowerCase();
  for (const name of PROBE_CLI_NAMES) {
    const row = cliRow(name);
    if (name === wanted || row.aliases.some((a) => a.toLowerCase() === wanted)) return name;
  }
  return null;
}

/** The sentence for a name no driver has: what it is, if witness knows it, and what is supported. */
export function unsupportedCli(text: string): string {
  const wanted = text.trim().toLowerCase();
  const known = CLI_NAMES.find(
    (n) => n === wanted || cliRow(n).aliases.some((a) => a.toLowerCase() === wanted),
  );
  const probe = known === undefined ? null : cliRow(known).probe;
  const why = probe !== null && probe !== true ? ` (${known}: ${probe.lacks})` : "";
  return `no driver for a CLI named "${text}"${why}; supported: ${PROBE_CLI_NAMES.join(", ")}`;
}

/** The version each CLI with a driver is pinned to. */
export function pinnedVersion(name: ProbeCliName): string {
  const pinned = cliRow(name).pinned;
  if (pinned === null) throw new Error(`catalog: ${name} has a driver but no pinned version`);
  return pinned;
}

function inPackageRange(version: string, range: PackageRange): boolean {
  if (range.from !== undefined && compareVersions(version, range.from) < 0) return false;
  return range.upTo === undefined || compareVersions(version, range.upTo) <= 0;
}

/** The npm package that published `name@version` (the newest name when no range holds it). */
export function packageFor(name: CliName, version: string): string {
  const packages = cliRow(name).packages;
  const held = packages.find((range) => inPackageRange(version, range)) ?? packages.at(-1);
  if (held === undefined) throw new Error(`catalog: ${name} has no npm package`);
  return held.name;
}

/** Every npm package name `name` was published under, oldest first. */
export function packagesOf(name: CliName): string[] {
  return cliRow(name).packages.map((range) => range.name);
}

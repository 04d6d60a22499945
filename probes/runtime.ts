// The runtime a CLI runs on: read from the installed package (its bin an ELF binary, or a script
// run by node, and its engines.node), then witness's own Node when it satisfies the range, else a
// Node from the vendor cache (the registry's Node package), unless an arm pins one.
import { open, readFile, realpath } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";

import semver from "semver";

import { UsageError } from "../core/errors.js";
import type { Runtime } from "./contracts/runtime.js";
import {
  cachedNodes,
  ensureNode,
  NODE_PACKAGE,
  pickNode,
  publishedNodes,
} from "./node-runtimes.js";
import type { VendorCacheOptions } from "./vendor-cache.js";

/** What a bin is, from its first bytes: a native executable, a script node runs, another script. */
export type BinKind =
  { kind: "native" } | { kind: "node"; viaEnv: boolean } | { kind: "script"; interpreter: string };

/** Reads the kind from a file's head (the ELF magic, or the `#!` line). */
export function binKindOf(head: Buffer): BinKind {
  if (head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return { kind: "native" };
  const text = head.toString("latin1");
  if (!text.startsWith("#!")) return { kind: "script", interpreter: "none" };
  const line = text.slice(2).split("\n")[0]?.trim() ?? "";
  const words = line.split(/\s+/);
  // `#!/usr/bin/env node`, `#!/usr/bin/env -S node --flag`, `#!/usr/local/bin/node`.
  const nodeAt = words.findIndex((w) => /(^|\/)node$/.test(w));
  if (nodeAt < 0) return { kind: "script", interpreter: line };
  return { kind: "node", viaEnv: nodeAt > 0 && /(^|\/)env$/.test(words[0] ?? "") };
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, 256, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The `engines.node` of the package that holds `file` (the nearest package.json above it). */
export async function declaredNode(file: string): Promise<string | null> {
  let dir = dirname(file);
  for (;;) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
        engines?: { node?: unknown };
      };
      const range = pkg.engines?.node;
      return typeof range === "string" && range.trim() !== "" ? range : null;
    } catch {
      const up = dirname(dir);
      if (up === dir) return null;
      dir = up;
    }
  }
}

/** The Node running witness. */
export interface OwnNode {
  path: string;
  version: string;
}

const OWN: OwnNode = { path: process.execPath, version: process.versions.node };

/** What `runtimeFor` needs besides the bin. */
export interface RuntimeOptions extends VendorCacheOptions {
  /** An exact Node version an arm pinned. */
  pin?: string;
  /** The Node running witness (tests). */
  own?: OwnNode;
  /** The registry's Node versions (tests; default one `npm view` query, only when needed). */
  published?: () => Promise<string[]>;
}

/**
 * The runtime `bin` runs on. A native binary or a script that names no node gets none. A Node CLI
 * gets the pinned version, else witness's own Node when it satisfies the CLI's engines.node, else
 * the newest cached Node that does, else the newest release of the lowest major that does,
 * installed into the cache. Throws a UsageError (exit 2) when that Node cannot be installed.
 */
export async function runtimeFor(
  bin: string,
  options: RuntimeOptions = {},
): Promise<RuntimeChoice> {
  const file = await realpath(bin);
  const kind = binKindOf(await readHead(file));
  const runtime = await choose(file, kind, options);
  // A `#!/usr/bin/env node` finds the runtime first on PATH; any other node line is bypassed.
  return { runtime, direct: runtime.kind !== "node" || (kind.kind === "node" && kind.viaEnv) };
}

/** A runtime, and whether the bin starts on it by itself (else the runtime's node runs it). */
export interface RuntimeChoice {
  runtime: Runtime;
  direct: boolean;
}

async function choose(file: string, kind: BinKind, options: RuntimeOptions): Promise<Runtime> {
  if (kind.kind === "native")
    return { kind: "native", why: `${file} is an ELF executable: no Node runs it` };
  if (kind.kind === "script")
    return { kind: "script", why: `${file} is run by ${kind.interpreter}, not node` };
  const declared = await declaredNode(file);
  const own = options.own ?? OWN;
  const pin = options.pin ?? null;
  const fits = (v: string) => declared === null || semver.satisfies(v, declared);
  const base = { kind: "node" as const, declared, pinned: pin, firstOnPath: true };
  const engines = declared === null ? "no engines.node" : `engines.node ${declared}`;
  if (pin !== null) {
    const outside = fits(pin) ? "" : `, outside its ${engines}`;
    if (pin === own.version)
      return {
        ...base,
        path: own.path,
        version: pin,
        source: "witness",
        why: `pinned by the arm (witness's own Node)${outside}`,
      };
    const node = await ensureNode(pin, options);
    return {
      ...base,
      path: node.node,
      version: pin,
      source: "vendor-cache",
      why: `pinned by the arm: ${NODE_PACKAGE}@${pin}${outside}`,
    };
  }
  if (fits(own.version))
    return {
      ...base,
      path: own.path,
      version: own.version,
      source: "witness",
      why: `witness's own Node satisfies ${engines}`,
    };
  const range = declared as string;
  const cached = (await cachedNodes(options)).find((n) => semver.satisfies(n.version, range));
  const why = (v: string) =>
    `${engines} excludes witness's Node ${own.version}: ${NODE_PACKAGE}@${v}`;
  if (cached !== undefined)
    return {
      ...base,
      path: cached.node,
      version: cached.version,
      source: "vendor-cache",
      why: why(cached.version),
    };
  const version = pickNode(range, await (options.published ?? (() => publishedNodes(options)))());
  if (version === null)
    throw new UsageError(
      `${file}: engines.node ${range}: no published ${NODE_PACKAGE} satisfies it`,
    );
  const node = await ensureNode(version, options);
  return { ...base, path: node.node, version, source: "vendor-cache", why: why(version) };
}

/** The file and arguments that start `bin` on the chosen runtime. */
export function launchOn(
  choice: RuntimeChoice,
  bin: string,
  args: readonly string[],
): { file: string; args: string[] } {
  if (choice.direct || choice.runtime.kind !== "node") return { file: bin, args: [...args] };
  return { file: choice.runtime.path, args: [bin, ...args] };
}

/**
 * `path` with the runtime's directory first, unless the first `node` on it already lives there
 * (then it is unchanged); a native or script runtime leaves it as it is.
 */
export function pathFor(runtime: Runtime, path: string, exists: (file: string) => boolean): string {
  if (runtime.kind !== "node") return path;
  const dir = dirname(runtime.path);
  const dirs = path.split(delimiter).filter((d) => d !== "");
  const firstNode = dirs.find((d) => exists(join(d, "node")));
  if (firstNode === dir) return path;
  return [dir, ...dirs.filter((d) => d !== dir)].join(delimiter);
}

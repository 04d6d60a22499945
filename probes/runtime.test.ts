import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { UsageError } from "../core/errors.js";
import { NODE_PACKAGE, pickNode, runtimesDir } from "./node-runtimes.js";
import { binKindOf, launchOn, pathFor, runtimeFor } from "./runtime.js";
import { ensureCli } from "./vendor-cache.js";

const FAKE_NPM_DIR = join(import.meta.dirname, "test", "fixtures", "fake-npm");

let dir: string;
let log: string;
let env: Record<string, string | undefined>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-runtime-test-"));
  log = join(dir, "npm.log");
  env = {
    PATH: `${FAKE_NPM_DIR}:${process.env.PATH ?? ""}`,
    HOME: dir,
    npm_config_witness_fake_log: log,
  };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const npmLines = async () => (await readFile(log, "utf8").catch(() => "")).trim().split("\n");

// A package with a bin (its head given) and, when asked, an engines.node.
async function pkg(head: string | Buffer, engines?: string): Promise<string> {
  const root = join(dir, "pkg");
  await mkdir(join(root, "dist"), { recursive: true });
  const manifest = {
    name: "x",
    version: "1.0.0",
    ...(engines ? { engines: { node: engines } } : {}),
  };
  await writeFile(join(root, "package.json"), JSON.stringify(manifest));
  await writeFile(join(root, "dist", "cli.js"), head);
  await chmod(join(root, "dist", "cli.js"), 0o755);
  await mkdir(join(dir, "bin"), { recursive: true });
  await symlink(join(root, "dist", "cli.js"), join(dir, "bin", "x"));
  return join(dir, "bin", "x");
}

describe("what a bin is, from its first bytes", () => {
  it.each([
    ["#!/usr/bin/env node\nconsole.log(1)", { kind: "node", viaEnv: true }],
    ["#!/usr/bin/env -S node --no-warnings\n", { kind: "node", viaEnv: true }],
    ["#!/usr/local/bin/node\n", { kind: "node", viaEnv: false }],
    ["#!/bin/sh\necho 1", { kind: "script", interpreter: "/bin/sh" }],
    ["console.log(1)", { kind: "script", interpreter: "none" }],
  ])("%j", (head, kind) => {
    expect(binKindOf(Buffer.from(head))).toEqual(kind);
  });

  it("an ELF header is a native binary", () => {
    expect(binKindOf(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toEqual({
      kind: "native",
    });
  });
});

describe("which Node a range gets from the registry", () => {
  const published = ["20.20.2", "22.18.0", "22.23.5", "23.1.0", "24.0.0-rc.1", "24.22.3"];
  it.each([
    [">=22.19.0", "22.23.5"],
    [">=20.6.0", "20.20.2"],
    ["^23 || ^24", "23.1.0"],
    [">=24", "24.22.3"],
    [">=30", null],
  ])("%s → %s", (range, want) => {
    expect(pickNode(range, published)).toBe(want);
  });
});

describe("the runtime a CLI runs on", () => {
  const own = { path: "/opt/node20/bin/node", version: "20.20.2" };

  it("a native binary gets none, and starts as it is", async () => {
    const bin = await pkg(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), ">=22.0.0");
    const choice = await runtimeFor(bin, { own, cacheDir: dir });
    expect(choice.runtime.kind).toBe("native");
    expect(launchOn(choice, bin, ["-p"])).toEqual({ file: bin, args: ["-p"] });
    expect(pathFor(choice.runtime, "/usr/bin:/bin", () => true)).toBe("/usr/bin:/bin");
  });

  it("a Node CLI whose engines witness's own Node satisfies runs on it", async () => {
    const bin = await pkg("#!/usr/bin/env node\n", ">=20.6.0");
    const { runtime } = await runtimeFor(bin, { own, cacheDir: dir });
    expect(runtime).toMatchObject({
      kind: "node",
      path: own.path,
      version: "20.20.2",
      source: "witness",
      declared: ">=20.6.0",
      pinned: null,
      firstOnPath: true,
    });
  });

  it("one whose engines exclude it gets the newest of the lowest major that fits, installed once and shared", async () => {
    const bin = await pkg("#!/usr/bin/env node\n", ">=99.1.0");
    const first = await runtimeFor(bin, { own, cacheDir: dir, env });
    expect(first.runtime).toMatchObject({ version: "99.2.0", source: "vendor-cache" });
    const node = join(runtimesDir({ cacheDir: dir }), `${NODE_PACKAGE}@99.2.0`);
    expect(first.runtime.kind === "node" && first.runtime.path).toBe(
      join(node, "node_modules", NODE_PACKAGE, "bin", "node"),
    );
    expect(first.runtime.kind === "node" && first.runtime.why).toBe(
      `engines.node >=99.1.0 excludes witness's Node 20.20.2: ${NODE_PACKAGE}@99.2.0`,
    );
    // A second CLI asking for the same range finds it in the cache: no registry query, no install.
    await runtimeFor(bin, { own, cacheDir: dir, env });
    expect(await npmLines()).toEqual([`view ${NODE_PACKAGE}`, `install ${NODE_PACKAGE}@99.2.0`]);
  });

  it("a pin wins over the range, and witness's own Node serves a pin of its version", async () => {
    const bin = await pkg("#!/usr/bin/env node\n", ">=99.1.0");
    const mine = await runtimeFor(bin, { own, cacheDir: dir, env, pin: "20.20.2" });
    expect(mine.runtime).toMatchObject({ source: "witness", pinned: "20.20.2" });
    expect(mine.runtime.kind === "node" && mine.runtime.why).toBe(
      "pinned by the arm (witness's own Node), outside its engines.node >=99.1.0",
    );
    const other = await runtimeFor(bin, { own, cacheDir: dir, env, pin: "98.0.0" });
    expect(other.runtime).toMatchObject({ version: "98.0.0", source: "vendor-cache" });
  });

  it("a Node that cannot be installed exits 2 naming it, and leaves nothing in the cache", async () => {
    const bin = await pkg("#!/usr/bin/env node\n", ">=99.1.0");
    const failing = runtimeFor(bin, { own, cacheDir: dir, env, pin: "99.9.9" });
    await expect(failing).rejects.toBeInstanceOf(UsageError);
    await expect(failing).rejects.toThrow(
      `cannot install the Node runtime ${NODE_PACKAGE}@99.9.9 into the vendor cache: notarget No matching version found for ${NODE_PACKAGE}@99.9.9.`,
    );
    expect(await readdir(runtimesDir({ cacheDir: dir }))).toEqual([]);
  });

  it("a node line that does not go through env is bypassed: the runtime's node runs the bin", async () => {
    const bin = await pkg("#!/usr/local/bin/node\n", ">=20");
    const choice = await runtimeFor(bin, { own, cacheDir: dir });
    expect(launchOn(choice, bin, ["-p"])).toEqual({ file: own.path, args: [bin, "-p"] });
  });
});

describe("the spawn's PATH", () => {
  const runtime = {
    kind: "node" as const,
    path: "/cache/runtimes/n/bin/node",
    version: "22.23.5",
    source: "vendor-cache" as const,
    declared: ">=22",
    pinned: null,
    why: "",
    firstOnPath: true,
  };
  it("puts the runtime's directory first, once", () => {
    const has = (f: string) => f === "/usr/bin/node" || f === "/cache/runtimes/n/bin/node";
    expect(pathFor(runtime, "/usr/local/bin:/usr/bin:/bin", has)).toBe(
      "/cache/runtimes/n/bin:/usr/local/bin:/usr/bin:/bin",
    );
  });
  it("leaves it unchanged when its first node is already the runtime's", () => {
    const own = { ...runtime, path: "/usr/bin/node" };
    const has = (f: string) => f === "/usr/bin/node" || f === "/bin/node";
    expect(pathFor(own, "/usr/local/bin:/usr/bin:/bin", has)).toBe("/usr/local/bin:/usr/bin:/bin");
  });
});

describe("the vendor cache's version check", () => {
  it("runs on the runtime the CLI declares (the fake CLI answers only on the fake Node)", async () => {
    const cacheDir = join(dir, "cache");
    const got = await ensureCli({ name: "qwen", version: "0.24.4" }, { cacheDir, env });
    expect(got.version).toBe("0.24.4");
    expect(existsSync(join(cacheDir, "runtimes", `${NODE_PACKAGE}@99.2.0`))).toBe(true);
  });

  it("a CLI whose Node cannot be installed is not cached either: exit 2 naming the Node", async () => {
    const cacheDir = join(dir, "cache");
    const failing = ensureCli({ name: "qwen", version: "0.99.0" }, { cacheDir, env });
    await expect(failing).rejects.toBeInstanceOf(UsageError);
    await expect(failing).rejects.toThrow(`the Node runtime ${NODE_PACKAGE}@100.1.0`);
    expect(await readdir(cacheDir)).toEqual(["runtimes"]);
    expect(await readdir(join(cacheDir, "runtimes"))).toEqual([]);
  });
});

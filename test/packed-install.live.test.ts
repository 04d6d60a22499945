// witness as a consumer gets it: the project packed once, the tarball installed into a throw-away
// project that has a cli/ folder of its own, and every command the README promises from a
// dependency run there through the installed bin.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { type ExecResult, runProcess } from "../core/exec.js";
import { recordSchema } from "../measurements/record.js";
import { builtCli } from "./support/built-cli.js";
import { liveClis } from "./support/live-clis.js";
import { commit, git, put, putAdr, WITNESS_ROOT } from "./support/witness-repo.js";

const PACKAGE = JSON.parse(await readFile(join(WITNESS_ROOT, "package.json"), "utf8")) as {
  version: string;
  scripts: Record<string, string>;
};

const clis = liveClis([PINNED["claude-code"]], "packed install");

const PROTOCOL = `id: "0001"
slug: demo
title: Demo protocol
adr: "0001"
hypothesis: Both CLAUDE.md files reach the model without --setting-sources.
cli:
  name: claude-code
  version: ${PINNED["claude-code"].version}
spawns: 1
arms:
  - id: only
    description: the only arm
    fixture:
      files:
        - { at: workspace, path: CLAUDE.md, content: "{{marker:A}}" }
        - { at: home, path: .claude/CLAUDE.md, content: "{{marker:B}}" }
    launch:
      argv: ["-p", "hi"]
    expect:
      - { kind: exit-code, equals: 0 }
      - { kind: marker-present, marker: A }
      - { kind: marker-present, marker: B }
`;

const FIXTURE = `trust: true
files:
  - { at: workspace, path: CLAUDE.md, content: "{{marker:WS}}" }
`;

let root = "";
let consumer = "";
let home = "";
let tarball = "";

// npm with the operator's own npm configuration and cache (as an install always reads them),
// preferring what its cache holds: the dependencies are the ones `npm ci` fetched.
function npm(cwd: string, ...args: string[]): Promise<ExecResult> {
  return runProcess({
    file: "npm",
    args: [...args, "--no-audit", "--no-fund", "--prefer-offline"],
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? tmpdir(),
      ...(process.env.npm_config_cache === undefined
        ? {}
        : { npm_config_cache: process.env.npm_config_cache }),
    },
    timeoutMs: 600_000,
  });
}

function node(cwd: string, args: readonly string[]): Promise<ExecResult> {
  return runProcess({
    file: process.execPath,
    args,
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      WITNESS_CACHE: clis.cacheDir,
    },
    timeoutMs: 300_000,
  });
}

/** The installed witness, run as `npx witness` would (its bin, from the consumer's root). */
function installed(...args: string[]): Promise<ExecResult> {
  return node(consumer, [join(consumer, "node_modules", ".bin", "witness"), ...args]);
}

function ok(result: ExecResult): ExecResult {
  expect(result.stderr + result.stdout).not.toContain("internal error");
  expect(result.exitCode, result.stderr).toBe(0);
  return result;
}

beforeAll(async () => {
  builtCli(); // refuses a stale dist/: the tarball is packed from it
  await clis.install();
  root = await mkdtemp(join(tmpdir(), "witness-packed-"));
  consumer = join(root, "consumer");
  home = join(root, "home");
  await mkdir(home);
  // prepack is `npm run build && <build info>`; dist/ is built already, so the build info is
  // written by prepack's own second command and the pack skips the scripts.
  const prepack = PACKAGE.scripts.prepack?.split(" && ") ?? [];
  expect(prepack[0]).toBe("npm run build");
  const info = prepack.slice(1).join(" && ").split(" ");
  expect(info[0]).toBe("node");
  ok(await node(WITNESS_ROOT, info.slice(1)));
  const packed = ok(
    await npm(WITNESS_ROOT, "pack", "--ignore-scripts", "--pack-destination", root),
  );
  tarball = join(root, packed.stdout.trim().split("\n").at(-1) ?? "");

  await mkdir(consumer);
  await git(consumer, "init", "-q", "-b", "main");
  await put(
    consumer,
    "package.json",
    '{ "name": "consumer", "version": "9.9.9", "private": true }\n',
  );
  await put(consumer, "cli/index.js", "// the consumer's own cli folder\n");
  await putAdr(consumer);
  await put(consumer, "docs/prereg/0001-demo.yaml", PROTOCOL);
  await put(consumer, "probe.fixture.yaml", FIXTURE);
  await put(consumer, ".gitignore", "node_modules/\n");
  ok(await npm(consumer, "install", "-D", tarball));
  await commit(consumer, "register 0001");
}, 900_000);

afterAll(() => (root === "" ? undefined : rm(root, { recursive: true, force: true })));

describe("witness packed and installed into a consumer project", () => {
  it("the tarball holds the build info prepack writes: witness's version and commit", async () => {
    const listed = await runProcess({
      file: "tar",
      args: ["-xzOf", tarball, "package/dist/build-info.json"],
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    expect(listed.exitCode, listed.stderr).toBe(0);
    const info = JSON.parse(listed.stdout) as { version: string; commit: string };
    expect(info.version).toBe(PACKAGE.version);
    expect(info.commit).toBe(await git(WITNESS_ROOT, "rev-parse", "HEAD"));
  });

  it("live: prereg lock and verify, run, adr check and report work from the installed package, and the record names witness's version and commit", async (ctx) => {
    clis.need(ctx, "claude-code");
    ok(await installed("prereg", "lock", "docs/prereg/0001-demo.yaml"));
    await commit(consumer, "lock 0001");
    ok(await installed("prereg", "verify"));
    ok(await installed("run", "docs/prereg/0001-demo.yaml"));
    const base = join(consumer, "docs", "measurements", "0001-demo-claude-code-2.1.332");
    const record = recordSchema.parse(JSON.parse(await readFile(`${base}.json`, "utf8")));
    const head = await git(WITNESS_ROOT, "rev-parse", "HEAD");
    expect(record.witness).toMatchObject({ version: PACKAGE.version, commit: head });
    expect(await readFile(`${base}.md`, "utf8")).toContain(
      `- witness: ${PACKAGE.version}, commit \`${head}\``,
    );
    ok(await installed("adr", "check"));
    ok(await installed("report", "--out", "evidence"));
    expect(existsSync(join(consumer, "evidence", "index.html"))).toBe(true);
  });

  it("live: probe runs a CLI with the consumer's fixture", async (ctx) => {
    clis.need(ctx, "claude-code");
    const result = ok(
      await installed(
        "probe",
        "--cli",
        "claude-code@2.1.332",
        "--fixture",
        "probe.fixture.yaml",
        "--json",
        "--",
        "-p",
        "hi",
      ),
    );
    const observation = JSON.parse(result.stdout) as {
      markers: { name: string; seenIn: string[] }[];
    };
    expect(observation.markers.find((m) => m.name === "WS")?.seenIn).toContain("messages");
  });

  it("prereg new points the editor at the installed package's protocol schema", async () => {
    ok(await installed("prereg", "new", "second", "--adr", "0001"));
    const text = await readFile(join(consumer, "docs", "prereg", "0002-second.yaml"), "utf8");
    const schema = /\$schema=(\S+)/.exec(text)?.[1] ?? "";
    expect(schema).toBe("../../node_modules/witness/docs/schemas/protocol.schema.json");
    expect(existsSync(join(consumer, "docs", "prereg", schema))).toBe(true);
  });

  it("shim install, a shimmed call, and shim log", async () => {
    ok(await installed("shim", "install", "--dir", "shims", "claude"));
    const call = await runProcess({
      file: join(consumer, "shims", "claude"),
      args: ["-p", "hello"],
      cwd: consumer,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    });
    expect(call.exitCode).toBe(0);
    const log = ok(await installed("shim", "log", "shims/shims.jsonl", "--json"));
    expect(log.stdout).toContain('"hello"');
  });

  it("the library entry points load from the installed package", async () => {
    const result = ok(
      await node(consumer, [
        "--input-type=module",
        "-e",
        'const o = await import("witness/orchestrator"); const s = await import("witness/shims"); const f = await import("witness/fake"); console.log(typeof o.planLaunch, typeof s.readShimLog, typeof f.startFake);',
      ]),
    );
    expect(result.stdout.trim()).toBe("function function function");
  });
});

// One orchestrator launch end to end: the cell, the fake server, a shim per CLI it may spawn, the
// orchestrator's command in the same containment a CLI gets, and one observation per spawn.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { symlink, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

import { buildChildEnv } from "../../core/child-env.js";
import { runProcess } from "../../core/exec.js";
import {
  type Cell,
  cellSentinelPath,
  cellSentinels,
  createCell,
  handCellTo,
} from "../cell/cell.js";
import { cellRootBase } from "../cell/cell-root.js";
import { newNonce, resolveSentinelsDeep } from "../cell/markers.js";
import {
  type Observation,
  observationSchema,
  redactObservation,
} from "../contracts/observation.js";
import {
  cliPathVariable,
  DEFAULT_MAX_SPAWNS,
  type OrchestratorLaunch,
  resolveCliPaths,
} from "../contracts/orchestrator-launch.js";
import { resolvePathsDeep } from "../contracts/placeholders.js";
import type { ProbeSpec } from "../contracts/probe-spec.js";
import { sentinelNames } from "../contracts/script.js";
import { noTranscript } from "../drivers/driver.js";
import { driverFor } from "../drivers/index.js";
import { driverResponder } from "../drivers/responder.js";
import { type FakeServer, startFakeServer } from "../fake/server.js";
import { containment } from "../isolation/contain.js";
import { openSpawnCgroup, type SpawnCgroup } from "../isolation/memory-cgroup.js";
import { acquireSlot, type NetnsSlot, netnsTools } from "../isolation/netns.js";
import { type PreparedSandbox, prepareSandbox } from "../isolation/sandbox.js";
import { readReport } from "../isolation/sandbox-report.js";
import { readTreeUse } from "../isolation/tree-use.js";
import { observe } from "../observe/observe.js";
import { launchOn, pathFor, runtimeFor } from "../runtime.js";
import { spawnEnv, spawnPath } from "../spawn-env.js";
import type { SpawnMeter } from "../spawn-use.js";
import { ensureCli } from "../vendor-cache.js";
import { ensurePackages } from "../vendor-packages.js";
import { ARGV_SLOT, SPAWN_SLOT, writeCellShims } from "./cell-shims.js";
import { orchestratedFaults, unshimmedRequests, userAgents } from "./faults.js";
import { orchestratorUse } from "./launch-use.js";
import { observeSpawns } from "./observe-spawns.js";
import { readSpawnRecords } from "./spawn-records.js";
import { checkUnshimmed, judgeUnshimmed } from "./unshimmed.js";

/** The options runProbe passes on (probes/run-probe.ts). */
export interface OrchestratedOptions {
  nonce?: string;
  keep?: boolean;
  cacheDir?: string;
  signal?: AbortSignal;
  noNetns?: boolean;
  /** Called with the cell once the run is over: runProbe keeps or removes it. */
  dispose: (cell: Cell) => void;
  /** witness's own cost of the launch, phase by phase (probes/spawn-use.ts). */
  meter?: SpawnMeter;
}

const TAIL = 4000;
const tail = (text: string) => (text.length > TAIL ? text.slice(-TAIL) : text);

/** The planted files the command names (a script it runs), with their content hash. */
function commandFiles(command: readonly string[], cell: Cell): { path: string; sha256: string }[] {
  return command.slice(1).flatMap((arg) => {
    const file = isAbsolute(arg) ? arg : resolve(cell.cwd, arg);
    const inside = relative(cell.root, file);
    if (inside.startsWith("..") || !existsSync(file) || !statSync(file).isFile()) return [];
    const sha = createHash("sha256").update(readFileSync(file)).digest("hex");
    return [{ path: inside, sha256: `sha256:${sha}` }];
  });
}

/** Runs the orchestrator of `spec` in a fresh cell and returns what it and each CLI it spawned did. */
export async function runOrchestrated(
  spec: ProbeSpec & { launch: { orchestrator: OrchestratorLaunch } },
  options: OrchestratedOptions,
): Promise<Observation> {
  const o = spec.launch.orchestrator;
  const driver = driverFor(spec.cli.name);
  const cache = options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir };
  const cli = await ensureCli(spec.cli, cache);
  const choice = await runtimeFor(cli.bin, {
    ...cache,
    ...(spec.runtime === undefined ? {} : { pin: spec.runtime.node }),
  });
  const installed = o.packages?.length ? await ensurePackages(o.packages, cache) : null;
  const maxSpawns = o.maxSpawns ?? DEFAULT_MAX_SPAWNS;
  const cell = await createCell({
    fixture: spec.fixture,
    // The fixture's cell root holds here as in a CLI launch: a sandbox question about writes
    // outside the workspace must not be answered by /tmp being writable.
    rootBase: await cellRootBase(spec.fixture.cell?.root ?? "temp", options.cacheDir),
    nonce: options.nonce ?? newNonce(),
    trust: (paths) => driver.trustWorkspace(paths, cli.version),
    ...(driver.prepareCell === undefined ? {} : { prepare: driver.prepareCell }),
    baseEnv: buildChildEnv({ parent: process.env }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  let slot: NetnsSlot | null = null;
  let server: FakeServer | null = null;
  let sandbox: PreparedSandbox | null = null;
  let cgroup: SpawnCgroup | null = null;
  try {
    slot = options.noNetns ? null : await netnsTools().then((t) => (t ? acquireSlot(t) : null));
    const script = resolvePathsDeep(
      resolveSentinelsDeep(spec.script, (name) => cellSentinelPath(cell, name)),
      cell.pathRoots,
    );
    server = await startFakeServer(
      driverResponder(driver, script, cli.version),
      slot ? { socketPath: slot.socketPath } : {},
    );
    const baseUrl = slot ? `http://127.0.0.1:${slot.port}` : server.url;
    // What a shim runs: the driver's launch around the orchestrator's argv, on the CLI's runtime.
    const target = driver.launch({
      argv: [ARGV_SLOT],
      baseUrl: `${baseUrl}/s/${SPAWN_SLOT}`,
      version: cli.version,
      cell,
    });
    const onRuntime = launchOn(choice, cli.bin, target.args);
    const cliPath = pathFor(choice.runtime, spawnPath(process.env.PATH ?? ""), existsSync);
    const shims = await writeCellShims({
      root: cell.root,
      node: process.execPath,
      targets: [
        {
          cli: spec.cli.name,
          file: onRuntime.file,
          args: onRuntime.args,
          head: onRuntime.args.length - target.args.length,
          env: { ...cell.env, ...target.env },
          path: cliPath,
        },
      ],
      maxSpawns,
    });
    if (installed !== null) await symlink(installed.nodeModules, join(cell.root, "node_modules"));
    const launch = resolveCliPaths(resolvePathsDeep(o, cell.pathRoots), shims.paths);
    // The orchestrator's own environment reaches the fake on /o: a CLI it starts without a shim
    // still talks to the fake, and is named (a bypass) instead of failing or going elsewhere.
    const own = driver.launch({ argv: [], baseUrl: `${baseUrl}/o`, version: cli.version, cell });
    const offered = Object.fromEntries(
      Object.entries(shims.paths).map(([name, path]) => [cliPathVariable(name), path]),
    );
    const env = spawnEnv({
      cell: cell.env,
      launched: { ...own.env, ...offered },
      ...(launch.env === undefined ? {} : { launch: launch.env }),
    });
    const hostPath = env.PATH ?? "";
    env.PATH = [shims.dir, hostPath].filter((p) => p !== "").join(":");
    await driver.prepare?.({ cell, env, baseUrl, version: cli.version });
    const contained = await containment();
    if (contained.kind === "sandbox") {
      sandbox = await prepareSandbox({
        bin: cli.bin,
        path: `${hostPath}:${dirname(process.execPath)}`,
        cell,
        masks: [],
        readOnly: installed === null ? [] : [dirname(installed.nodeModules)],
      });
      await handCellTo(cell, sandbox.launch.uid);
    }
    const [file, ...args] = launch.command as [string, ...string[]];
    cgroup = contained.reports ? await openSpawnCgroup() : null;
    const inPidns = contained.wrap(file, args, {
      flushDir: cell.root,
      ...(cgroup === null ? {} : { cgroupProcs: cgroup.procs }),
      ...(sandbox === null ? {} : { sandbox: sandbox.launch }),
    });
    const wrapped = slot ? slot.wrap(inPidns.file, inPidns.args) : inPidns;
    const startedAt = Date.now();
    options.meter?.phase("spawn");
    const result = await runProcess({
      file: wrapped.file,
      args: wrapped.args,
      killSignal: "SIGKILL",
      processGroup: contained.kind === "process-group",
      reportPipe: contained.reports,
      env,
      cwd: cell.cwd,
      ...(launch.stdin === undefined ? {} : { input: launch.stdin }),
      timeoutMs: spec.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const treeUse = contained.reports ? readTreeUse(result.report ?? "") : null;
    const peakMemory = treeUse === null ? null : ((await cgroup?.peak()) ?? null);
    const tree = treeUse === null ? null : { ...treeUse, ...(peakMemory && { peakMemory }) };
    // The whole tree was reaped: the orchestrator's, its shims' and its CLIs' CPU, none witness's.
    options.meter?.phase("observe", tree?.cpuMs ?? 0);
    options.signal?.throwIfAborted();
    const requests = [...server.requests];
    // A kept cell keeps the captured requests too (each with its spawn), beside spawns/<n>/.
    if (options.keep)
      await writeFile(join(cell.root, "requests.json"), JSON.stringify(requests, null, 2));
    const records = readSpawnRecords(shims.spawnsDir);
    const spawns = await observeSpawns({
      driver,
      records,
      requests,
      cell,
      script: spec.script,
      startedAt,
    });
    const first = spawns.transcripts[0] ?? noTranscript();
    const observed = observe({
      driver,
      requests,
      markers: cell.markers,
      sentinels: cellSentinels(cell, sentinelNames(spec.script)),
      transcript: first,
      script: spec.script,
      ...(sandbox === null ? {} : { spawnUid: sandbox.launch.uid }),
    });
    const held = sandbox === null ? null : readReport(result.report ?? "");
    const use = orchestratorUse(tree, spawns.observations);
    // Requests no shim saw: a bypass, unless the launch allows the binary that sent them by
    // content hash and that file is the pinned CLI's, byte for byte.
    const cliNamed = `${spec.cli.name} ${cli.version}`;
    const bypass = unshimmedRequests(requests);
    const allowance =
      bypass.length === 0 || o.allowUnshimmed === undefined
        ? { allowed: null, fault: null }
        : judgeUnshimmed(
            checkUnshimmed(o.allowUnshimmed, cell.root, realpathSync(cli.bin)),
            userAgents(bypass),
            cliNamed,
          );
    return redactObservation(
      observationSchema.parse({
        cli: { name: spec.cli.name, version: cli.version },
        argv: launch.command,
        runtime: choice.runtime,
        ...(launch.stdin === undefined || launch.stdin === "" ? {} : { stdin: launch.stdin }),
        env,
        cwd: cell.cwd,
        cellRoot: spec.fixture.cell?.root ?? "temp",
        isolation: slot ? "netns" : "loopback-config",
        ...(slot ? { netnsForwarder: slot.forwarder } : {}),
        containment: contained.kind,
        ...(held === null ? {} : { containmentHeld: held }),
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        ...observed,
        rejectedArgv: null,
        orchestrator: {
          command: launch.command,
          clis: launch.clis,
          packages: installed?.packages ?? [],
          files: commandFiles(launch.command, cell),
          maxSpawns,
          ...(allowance.allowed === null
            ? {}
            : {
                unshimmed: [
                  {
                    ...allowance.allowed,
                    requests: bypass.length,
                    userAgents: userAgents(bypass),
                  },
                ],
              }),
        },
        ...(use === null ? {} : { orchestratorUse: use }),
        spawns: spawns.observations,
        faults: orchestratedFaults({
          result,
          requests,
          records,
          maxSpawns,
          cli: cliNamed,
          command: launch.command,
          unshimmed: { allowed: allowance.allowed !== null, fault: allowance.fault },
        }),
        transcriptFile: first.path === null ? null : relative(cell.root, first.path),
        stdoutTail: tail(result.stdout),
        stderrTail: tail(result.stderr),
      }),
    );
  } finally {
    options.meter?.phase("cleanup");
    await Promise.all([server?.close(), slot?.release(), sandbox?.dispose(), cgroup?.dispose()]);
    options.dispose(cell);
  }
}

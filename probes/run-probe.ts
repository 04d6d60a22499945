// One probe spawn end to end: cell, fake server, launch (netns when possible), observe, clean up.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { constants } from "node:os";
import { join, relative } from "node:path";

import { factsOf } from "../clis/facts-by-cli.js";
import type { ProbeCliName } from "../clis/names.js";
import { buildChildEnv } from "../core/child-env.js";
import { errorMessage } from "../core/error-text.js";
import { RefusalError } from "../core/errors.js";
import { type ExecResult, runProcess } from "../core/exec.js";
import { parseWith } from "../core/read-input.js";
import {
  type Cell,
  cellSentinelPath,
  cellSentinels,
  createCell,
  handCellTo,
  removeCellLater,
  startCellFlush,
} from "./cell/cell.js";
import { cellRootBase } from "./cell/cell-root.js";
import { newNonce, resolveSentinelsDeep } from "./cell/markers.js";
import {
  type CompileCachePlan,
  NODE_COMPILE_CACHE,
  planCompileCache,
  publishCompileCache,
} from "./compile-cache.js";
import { DEFAULT_MANAGED_MODE, type ManagedMode } from "./contracts/fixture.js";
import {
  type NoRequestReason,
  type Observation,
  observationSchema,
  redactObservation,
  type WitnessUse,
} from "./contracts/observation.js";
import { resolvePathsDeep } from "./contracts/placeholders.js";
import { type ProbeSpec, probeSpecSchema } from "./contracts/probe-spec.js";
import { sentinelNames } from "./contracts/script.js";
import { flagSwitches, type RejectedArgv } from "./drivers/driver.js";
import { driverFor } from "./drivers/index.js";
import { renderNodeLaunch } from "./drivers/node-launch.js";
import { driverResponder } from "./drivers/responder.js";
import { type CapturedRequest, type FakeServer, startFakeServer } from "./fake/server.js";
import { isSideRequest, NOT_FOUND_ANSWER, sideRequestSummary } from "./fake/side-routes.js";
import { containment } from "./isolation/contain.js";
import {
  type ManagedFact,
  managedFacts,
  maskFailure,
  maskTargets,
  maskWrap,
  refuseManaged,
} from "./isolation/managed.js";
import { openSpawnCgroup, type SpawnCgroup } from "./isolation/memory-cgroup.js";
import { acquireSlot, type NetnsSlot, netnsTools } from "./isolation/netns.js";
import { type PreparedSandbox, prepareSandbox } from "./isolation/sandbox.js";
import { readReport, sandboxFaults, unsandboxedHeld } from "./isolation/sandbox-report.js";
import { readTreeUse } from "./isolation/tree-use.js";
import { disownTempDir } from "./leftovers.js";
import { noRequestReason, reasonText } from "./no-request.js";
import { traceWrap } from "./observe/file-trace.js";
import { observe } from "./observe/observe.js";
import { listCell, startTrace, tracedReads, type Tracing } from "./observe/trace-spawn.js";
import { runOrchestrated } from "./orchestrated/run-orchestrated.js";
import { launchOn, runtimeFor } from "./runtime.js";
import { spawnEnv } from "./spawn-env.js";
import { addSpawnAccount, type SpawnMeter, startSpawnMeter } from "./spawn-use.js";
import { ensureCli } from "./vendor-cache.js";

/** Options of one probe spawn. */
export interface RunProbeOptions {
  /** Fixed nonce (tests); random per run otherwise. */
  nonce?: string;
  /** Keep the cell on disk afterwards (its path goes to onCellKept). */
  keep?: boolean;
  cacheDir?: string;
  signal?: AbortSignal;
  onCellKept?: (dir: string) => void;
  /** Force plain loopback even where a network namespace is available. */
  noNetns?: boolean;
  /** Where the driver's machine-wide managed paths are looked for and masked (tests; default `/`). */
  managedRoot?: string;
}

const TAIL = 4000;
const tail = (text: string) => (text.length > TAIL ? text.slice(-TAIL) : text);

/** The answer the fake server records when it played a scripted hang. */
export const HANG_PLAYED = "fault:hang";

/**
 * Infrastructure problems in a finished spawn, each a short line naming what went wrong (empty:
 * the spawn is evidence). Side traffic is not one; a model call the fake could not serve is, and
 * so is a flag the CLI refused (`rejected`, the driver's reading of its stderr). A timeout is
 * excused only when the fake server actually played a scripted hang: a spawn killed before it
 * reached that turn timed out on its own.
 */
export function spawnFaults(
  result: ExecResult,
  requests: readonly CapturedRequest[],
  context: { cli?: string; rejected?: RejectedArgv | null; reason?: NoRequestReason | null } = {},
): string[] {
  const faults: string[] = [];
  const model = requests.filter((r) => !isSideRequest(r));
  if (result.spawnError !== null) faults.push(`cli-not-started: ${result.spawnError}`);
  if (context.rejected != null) {
    const { flag, message } = context.rejected;
    faults.push(`${context.cli ?? "the CLI"} rejected \`${flag}\`: ${message}`);
  } else if (model.length === 0) {
    const side = requests.length === 0 ? "" : ` (only side traffic: ${sideList(requests)})`;
    const why = context.reason == null ? "" : `; ${reasonText(context.reason)}`;
    faults.push(`no-request: no model request reached the fake server${side}${why}`);
  }
  if (result.timedOut && !requests.some((r) => r.answer === HANG_PLAYED))
    faults.push("timeout: the CLI did not finish in time");
  const killed = killedFromOutside(result);
  if (killed !== null)
    faults.push(
      `killed: the CLI ended by ${killed}, which witness did not send: its run was cut short`,
    );
  for (const r of model) {
    if (r.answer === NOT_FOUND_ANSWER)
      faults.push(`unserved-model-request: ${r.method} ${r.path} (the fake serves no such route)`);
    if (r.answer === "responder-error") faults.push(`fake-server-error: ${r.method} ${r.path}`);
  }
  return faults;
}

/**
 * The signal that ended the CLI when witness did not (its timeout and abort send theirs), or null.
 * In a PID namespace the CLI's launcher reports a signal as a shell does, 128 + its number: a CLI
 * that exits so itself says a signal interrupted it, which cuts its run short just the same.
 */
export function killedFromOutside(result: ExecResult): string | null {
  if (result.timedOut) return null;
  if (result.signal !== null) return result.signal;
  const n = (result.exitCode ?? 0) - 128;
  if (n < 1 || n > 64) return null;
  const name = Object.entries(constants.signals).find(([, number]) => number === n)?.[0];
  return `${name ?? `signal ${n}`} (exit code ${result.exitCode})`;
}

function sideList(requests: readonly CapturedRequest[]): string {
  return sideRequestSummary(requests)
    .map((s) => `${s.method} ${s.path}`)
    .join(", ");
}

/**
 * The managed files of `cli`'s driver as they stand, and the directories `mode` masks; throws the
 * refusal (exit 2) when `mode` forbids the spawn. `witness run` asks it of every arm up front.
 */
export async function checkManaged(
  cli: ProbeCliName,
  mode: ManagedMode,
  options: { root?: string } = {},
): Promise<{ facts: ManagedFact[]; masked: string[] }> {
  const root = options.root ?? "/";
  const facts = managedFacts(factsOf(cli).managedFiles, existsSync, root);
  const masked = mode === "mask" ? maskTargets(facts, root) : [];
  if (mode !== "record")
    refuseManaged(mode, facts, { cli, containment: (await containment()).kind });
  return { facts, masked };
}

/** Runs the real CLI once in a fresh cell against the scripted fake model and returns what it observed. */
export async function runProbe(
  specInput: ProbeSpec,
  options: RunProbeOptions = {},
): Promise<Observation> {
  options.signal?.throwIfAborted();
  const spec = parseWith(probeSpecSchema, specInput, "probe spec");
  const nonce = options.nonce ?? newNonce();
  // Managed configuration is judged first: a refused spawn installs and starts nothing.
  const managedMode = spec.fixture.managed ?? DEFAULT_MANAGED_MODE;
  const { facts: managed, masked } = await checkManaged(spec.cli.name, managedMode, {
    ...(options.managedRoot === undefined ? {} : { root: options.managedRoot }),
  });
  if ("orchestrator" in spec.launch) {
    if (masked.length > 0)
      throw new RefusalError(
        "managed-unmaskable",
        `${masked.join(", ")}: an orchestrator launch cannot mask managed files yet`,
      );
    const launch = spec.launch;
    const meter = startSpawnMeter();
    let witnessUse: WitnessUse | null = null;
    try {
      const observation = await runOrchestrated(
        { ...spec, launch },
        { ...options, dispose: (c) => dispose(c, options), meter },
      );
      witnessUse = meter.end();
      const cli = `${observation.cli.name}@${observation.cli.version}`;
      const use = observation.orchestratorUse;
      addSpawnAccount({
        cli,
        cliUse: null,
        witnessUse,
        ...(use === undefined
          ? {}
          : {
              orchestrator: {
                ownCpuMs: use.ownCpuMs,
                spawns: (observation.spawns ?? []).flatMap((s) => (s.cliUse ? [s.cliUse] : [])),
              },
            }),
      });
      return { ...observation, witnessUse };
    } finally {
      if (witnessUse === null) meter.end();
    }
  }
  // The containment check (a sandboxed /bin/true, once a process) runs while the cell is made.
  void containment().catch(() => {});
  const meter = startSpawnMeter();
  let witnessUse: WitnessUse | null = null;
  try {
    const judged = { managed, masked, managedMode, nonce };
    const observation = await spawnCli({ ...spec, launch: spec.launch }, judged, options, meter);
    witnessUse = meter.end();
    const cli = `${observation.cli.name}@${observation.cli.version}`;
    addSpawnAccount({ cli, cliUse: observation.cliUse ?? null, witnessUse });
    return { ...observation, witnessUse };
  } finally {
    if (witnessUse === null) meter.end();
  }
}

/** What runProbe judged before the CLI's spawn: its managed files and the cell's nonce. */
interface Judged {
  managed: ManagedFact[];
  masked: string[];
  managedMode: ManagedMode;
  nonce: string;
}

// One spawn of the CLI itself (not an orchestrator's), metered phase by phase.
async function spawnCli(
  spec: ProbeSpec & { launch: Exclude<ProbeSpec["launch"], { orchestrator: unknown }> },
  { managed, masked, managedMode, nonce }: Judged,
  options: RunProbeOptions,
  meter: SpawnMeter,
): Promise<Observation> {
  const driver = driverFor(spec.cli.name);
  const started = performance.now();
  let cli: { bin: string; version: string };
  try {
    cli = await ensureCli(
      spec.cli,
      options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir },
    );
  } catch (error) {
    return missingCli(spec, error, performance.now() - started);
  }
  // Decided before the cell: a Node that cannot be installed is bad input (exit 2), not a spawn.
  const choice = await runtimeFor(cli.bin, {
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    ...(spec.runtime === undefined ? {} : { pin: spec.runtime.node }),
  });
  const baseEnv = buildChildEnv({ parent: process.env });
  // The cell and the namespace do not depend on each other: build one while the other starts.
  const [made, acquired] = await Promise.allSettled([
    createCell({
      fixture: spec.fixture,
      rootBase: await cellRootBase(spec.fixture.cell?.root ?? "temp", options.cacheDir),
      nonce,
      trust: (paths) => driver.trustWorkspace(paths, cli.version),
      ...(driver.prepareCell === undefined ? {} : { prepare: driver.prepareCell }),
      baseEnv,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }),
    options.noNetns ? null : netnsTools().then((tools) => (tools ? acquireSlot(tools) : null)),
  ]);
  if (made.status === "rejected" || acquired.status === "rejected") {
    if (acquired.status === "fulfilled") await acquired.value?.release();
    if (made.status === "fulfilled") dispose(made.value, options);
    throw made.status === "rejected" ? made.reason : (acquired as PromiseRejectedResult).reason;
  }
  const cell = made.value;
  const slot: NetnsSlot | null = acquired.value;
  let server: FakeServer | null = null;
  let sandbox: PreparedSandbox | null = null;
  let tracing: Tracing | null = null;
  let cgroup: SpawnCgroup | null = null;
  try {
    const script = resolvePathsDeep(
      resolveSentinelsDeep(spec.script, (name) => cellSentinelPath(cell, name)),
      cell.pathRoots,
    );
    const launchSpec = resolvePathsDeep(spec.launch, cell.pathRoots);
    meter.phase("server");
    const responder = driverResponder(driver, script, cli.version);
    server = await startFakeServer(responder, slot ? { socketPath: slot.socketPath } : {});
    const baseUrl = slot ? `http://127.0.0.1:${slot.port}` : server.url;
    meter.phase("launch");

    const planned =
      "node" in launchSpec ? await renderNodeLaunch(launchSpec, spec.cli.name, cell) : null;
    const argv = planned ? planned.args : "argv" in launchSpec ? launchSpec.argv : [];
    const stdin = planned ? planned.stdin : "argv" in launchSpec ? launchSpec.stdin : undefined;
    const launched = driver.launch({
      argv,
      baseUrl,
      version: cli.version,
      cell,
      ...(stdin === undefined ? {} : { stdin }),
    });
    const args = launched.args;
    const env = spawnEnv({
      cell: cell.env,
      ...(planned === null ? {} : { planned: planned.env }),
      launched: launched.env,
      dropped: flagSwitches(driver, spec.fixture),
      ...("orchestrator" in launchSpec || launchSpec.env === undefined
        ? {}
        : { launch: launchSpec.env }),
      runtime: choice.runtime,
    });
    // An arm that sets Node's variable itself keeps its own value.
    const compile: CompileCachePlan =
      env[NODE_COMPILE_CACHE] === undefined
        ? planCompileCache({
            runtime: choice.runtime,
            bin: cli.bin,
            cellRoot: cell.root,
            env: process.env,
          })
        : { state: "off", why: `the launch sets ${NODE_COMPILE_CACHE}` };
    if (compile.state !== "off") env[NODE_COMPILE_CACHE] = compile.dir;
    // Made now, so the sandbox hands it to the spawn's uid with the rest of the cell (the cell's
    // root stays witness's: Node could not create it there).
    if (compile.state === "write") await mkdir(compile.dir, { recursive: true });
    await driver.prepare?.({ cell, env, baseUrl, version: cli.version });
    if (spec.fixture.featureFlags !== undefined)
      await driver.flagCache?.plant(cell.home, spec.fixture.featureFlags);
    const flags = await driver.featureFlags?.({ cell, env, baseUrl, version: cli.version });
    // The CLI and whatever it starts end with the spawn, and with witness however it dies.
    // The network namespace is entered first: inside the PID namespace /proc is its own, and
    // no longer shows the forwarder whose namespace nsenter joins.
    const contained = await containment();
    if (contained.kind === "sandbox") {
      // The cell becomes the spawn's own host uid's, after everything witness writes into it.
      sandbox = await prepareSandbox({ bin: cli.bin, path: env.PATH ?? "", cell, masks: masked });
      await handCellTo(cell, sandbox.launch.uid);
    }
    // Without the sandbox a mask is mounted in the PID namespace's own mount namespace, just
    // before the CLI starts; the sandbox's view mounts it itself.
    const onRuntime = launchOn(choice, cli.bin, args);
    const unmasked =
      sandbox === null ? maskWrap(onRuntime.file, onRuntime.args, masked) : onRuntime;
    // The tree's peak memory: a memory cgroup its first process joins, where witness can make one.
    cgroup = contained.reports ? await openSpawnCgroup() : null;
    const inPidns = contained.wrap(unmasked.file, unmasked.args, {
      flushDir: cell.root,
      ...(cgroup === null ? {} : { cgroupProcs: cgroup.procs }),
      ...(sandbox === null ? {} : { sandbox: sandbox.launch }),
    });
    const inNetns = slot ? slot.wrap(inPidns.file, inPidns.args) : inPidns;
    // Outermost, so the trace sees every namespace's processes and stays out of the cell's reach.
    tracing = spec.traceFiles === true ? await startTrace() : null;
    const launch =
      tracing?.file === undefined
        ? inNetns
        : traceWrap(tracing.strace, tracing.file, inNetns.file, inNetns.args);
    if (tracing !== null && tracing.file !== undefined)
      tracing.before = (await listCell(cell.root)) ?? undefined;
    if (!contained.flushes) startCellFlush(cell);
    meter.phase("spawn");
    const result = await runProcess({
      file: launch.file,
      args: launch.args,
      killSignal: "SIGKILL",
      processGroup: contained.kind === "process-group",
      reportPipe: contained.reports,
      env,
      cwd: cell.cwd,
      ...(launched.stdin === undefined ? {} : { input: launched.stdin }),
      timeoutMs: spec.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const treeUse = contained.reports ? readTreeUse(result.report ?? "") : null;
    const peakMemory = treeUse === null ? null : ((await cgroup?.peak()) ?? null);
    const cliUse = treeUse === null ? null : { ...treeUse, ...(peakMemory && { peakMemory }) };
    meter.phase("observe", cliUse?.cpuMs ?? 0);
    // An aborted spawn is not an observation: stop here (the finally still cleans up).
    options.signal?.throwIfAborted();
    const published = await publishCompileCache(compile);
    const maskFailed = masked.length === 0 ? null : maskFailure(result.exitCode, result.stderr);
    if (maskFailed !== null)
      throw new RefusalError("managed-unmaskable", `${masked.join(", ")}: ${maskFailed}`);
    const requests = [...server.requests];
    // A kept cell keeps the captured requests and the CLI's whole output too: the raw evidence
    // behind the observation (its tails are redacted, e.g. the session id a CLI prints).
    if (options.keep) {
      await writeFile(join(cell.root, "requests.json"), JSON.stringify(requests, null, 2));
      const output = { stdout: result.stdout, stderr: result.stderr };
      await writeFile(join(cell.root, "output.json"), JSON.stringify(output, null, 2));
    }
    const transcript = await driver.readTranscript(env, {
      markers: cell.markers.map((m) => m.value),
      stdout: result.stdout,
      stderr: result.stderr,
    });
    // A refusal of the argv is read only when the CLI stopped before asking the model anything;
    // any other stop before a model request keeps the CLI's own reason.
    const asked = requests.some((r) => !isSideRequest(r));
    const rejected =
      result.exitCode !== 0 && !asked ? (driver.rejectedArgv?.(result.stderr) ?? null) : null;
    const reason =
      asked || rejected !== null || result.spawnError !== null
        ? null
        : noRequestReason(result.exitCode, result.stderr, factsOf(spec.cli.name).exitCodes);
    const held =
      sandbox === null
        ? unsandboxedHeld(contained.kind === "pidns" ? "pidns" : "process-group", ownStatus())
        : readReport(result.report ?? "");
    const heldFaults =
      sandbox === null
        ? []
        : sandboxFaults(held, { uid: sandbox.launch.uid, netns: slot !== null });
    const observed = observe({
      driver,
      requests,
      markers: cell.markers,
      sentinels: cellSentinels(cell, sentinelNames(spec.script)),
      transcript,
      script: spec.script,
      ...(sandbox === null ? {} : { spawnUid: sandbox.launch.uid }),
    });
    const observation = observationSchema.parse({
      cli: { name: spec.cli.name, version: cli.version },
      argv: [onRuntime.file, ...onRuntime.args],
      runtime: choice.runtime,
      compileCache:
        compile.state === "write" ? { state: compile.state, dir: compile.dir, published } : compile,
      ...(launched.stdin === undefined || launched.stdin === "" ? {} : { stdin: launched.stdin }),
      env,
      cwd: cell.cwd,
      ...(launchSpec.env === undefined ? {} : { launchEnv: launchSpec.env }),
      cellRoot: spec.fixture.cell?.root ?? "temp",
      isolation: slot ? "netns" : "loopback-config",
      ...(slot ? { netnsForwarder: slot.forwarder } : {}),
      containment: contained.kind,
      ...(held === null ? {} : { containmentHeld: held }),
      managedFiles: managed,
      ...(managedMode === "mask" ? { managedMasked: masked } : {}),
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      ...(cliUse === null ? {} : { cliUse }),
      ...observed,
      rejectedArgv: rejected,
      ...(reason === null ? {} : { noRequestReason: reason }),
      faults: [
        ...spawnFaults(result, requests, {
          cli: `${spec.cli.name} ${cli.version}`,
          rejected,
          reason,
        }),
        ...heldFaults,
        ...forgedSentinels(observed.sentinels),
        // A spawn asked to be traced and untraced is no evidence about what it read.
        ...(tracing !== null && tracing.file === undefined
          ? [`file trace unavailable: ${tracing.why ?? "unknown"}`]
          : []),
      ],
      ...(tracing === null
        ? {}
        : await tracedReads(tracing, cell, observed.markers, spec.cli.name)),
      ...(flags === undefined ? {} : { featureFlags: flags }),
      transcriptFile: transcript.path === null ? null : relative(cell.root, transcript.path),
      stdoutTail: tail(result.stdout),
      stderrTail: tail(result.stderr),
    });
    return redactObservation(observation);
  } finally {
    meter.phase("cleanup");
    await Promise.all([
      server?.close(),
      slot?.release(),
      sandbox?.dispose(),
      tracing?.dispose(),
      cgroup?.dispose(),
    ]);
    dispose(cell, options);
  }
}

/** A sentinel in a sandboxed spawn's cell that another uid made: not this spawn's evidence. */
export function forgedSentinels(sentinels: Observation["sentinels"]): string[] {
  return sentinels
    .filter((s) => s.madeBySpawn === false)
    .map((s) => `sentinel-forged: ${s.name} was made by another uid than this spawn's`);
}

function ownStatus(): string | null {
  try {
    return readFileSync("/proc/self/status", "utf8");
  } catch {
    return null;
  }
}

function dispose(cell: Cell, options: RunProbeOptions): void {
  if (options.keep) {
    // Kept on purpose: `witness clean` must not take it for a crashed run's leftover.
    disownTempDir(cell.root);
    options.onCellKept?.(cell.root);
  } else removeCellLater(cell);
}

function missingCli(spec: ProbeSpec, error: unknown, durationMs: number): Observation {
  const message = errorMessage(error);
  return {
    cli: { name: spec.cli.name, version: "" },
    argv: [],
    env: {},
    cwd: "",
    isolation: "loopback-config",
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs,
    requestCount: 0,
    markers: [],
    sentinels: [],
    toolsOffered: [],
    toolCalls: [],
    permissionMode: null,
    sandboxPolicy: null,
    sideRequests: [],
    helperCalls: [],
    rejectedArgv: null,
    faults: [`cli-missing: ${message}`],
    stdoutTail: "",
    stderrTail: "",
  };
}

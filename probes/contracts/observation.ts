import { z } from "zod";

import { CALL_OUTCOMES } from "../../clis/outcome.js";
import { redactArgv, redactEnv, redactStrings, redactText } from "../../core/redact.js";
import { runtimeSchema } from "./runtime.js";

/** Where a marker was seen. */
export const markerLocationSchema = z.enum(["system", "messages", "tools", "transcript"]);
export type MarkerLocation = z.infer<typeof markerLocationSchema>;

/** Characters of a created sentinel's content an observation keeps. */
export const SENTINEL_CONTENT_KEPT = 4096;

/** How a tool call ended (clis/outcome.ts). */
export const toolOutcomeSchema = z.enum(CALL_OUTCOMES);
export type ToolOutcome = z.infer<typeof toolOutcomeSchema>;

/** Characters of context kept on each side of a marker occurrence (the widest `near` window). */
export const SIGHTING_CONTEXT = { before: 400, after: 160 } as const;
/** Occurrences whose context a sighting keeps (the count covers all of them). */
export const SIGHTING_CONTEXTS_KEPT = 4;

/**
 * Where one marker occurred in one agent request: the section, the role of the entry it was in
 * (a message's role, a Codex input item's; null for a section without roles), how often, and the
 * text around the first few occurrences, all read from the request's JSON text.
 */
export const sightingSchema = z.object({
  /** Index among the spawn's agent requests (0 = the first request the CLI sent for a turn). */
  request: z.number().int(),
  location: z.enum(["system", "messages", "tools"]),
  role: z.string().nullable(),
  count: z.number().int(),
  /** Up to SIGHTING_CONTEXTS_KEPT occurrences: the text just before and just after the marker. */
  contexts: z.array(z.object({ before: z.string(), after: z.string() })),
});
export type Sighting = z.infer<typeof sightingSchema>;
/** Tokens a session used, as its transcript recorded them. */
export const tokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** How the spawn was kept off the network. */
export const isolationSchema = z.enum(["netns", "loopback-config"]);

/** The containment the CLI ran under, as measured (sandbox) or as launched (the fallbacks). */
export const heldSchema = z.object({
  /** The uid the CLI saw itself as. */
  uid: z.number().int().nullable(),
  /** Its uid on the host when it ran in a user namespace of its own; null in the host's. */
  hostUid: z.number().int().nullable(),
  /** Its capabilities in the host's namespaces: "none", or the effective set in hex. */
  hostCapabilities: z.string(),
  /** Whether no_new_privs was set. */
  noNewPrivs: z.boolean().nullable(),
  /** /proc showed its own PID namespace only (witness and the host's processes absent). */
  ownProc: z.boolean(),
  /** Network interfaces it had (its network namespace's, or the host's). */
  interfaces: z.array(z.string()),
  /** Whether it saw the cell view (a host path the view leaves out was not there) or the host's files. */
  files: z.enum(["cell-view", "host"]),
});
export type Held = z.infer<typeof heldSchema>;

/** Why a spawn reached no model request: the exit code, its meaning to the CLI, the stderr's end. */
export const noRequestReasonSchema = z.object({
  exitCode: z.number().int().nullable(),
  /** The driver's reading of the exit code (e.g. Gemini CLI's 55: an untrusted folder), or null. */
  meaning: z.string().nullable(),
  /** The last lines of stderr, without colour codes, at most a few hundred characters. */
  stderr: z.string(),
});
export type NoRequestReason = z.infer<typeof noRequestReasonSchema>;

/** The reason in one line: `exit 55 (untrusted folder …); stderr: "…"`. */
export function reasonText(reason: NoRequestReason): string {
  const exit =
    reason.exitCode === null
      ? "no exit code"
      : `exit ${reason.exitCode}${reason.meaning === null ? "" : ` (${reason.meaning})`}`;
  return `${exit}; ${reason.stderr === "" ? "nothing on stderr" : `stderr: ${JSON.stringify(reason.stderr)}`}`;
}

/** One planted marker and where it reached the model. */
export const observedMarkerSchema = z.object({
  name: z.string(),
  value: z.string(),
  /** Cell-relative paths the marker was planted in. */
  planted: z.array(z.string()),
  seenIn: z.array(markerLocationSchema),
  /** Per agent request, section and role (absent in records written before it existed). */
  sightings: z.array(sightingSchema).optional(),
});

/** One tool call the fake model issued, and how it ended. */
export const observedCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  outcome: toolOutcomeSchema,
  /** What decided the outcome, in the classifier's words (absent in older records). */
  because: z.string().optional(),
  resultText: z.string(),
  /** The CLI's own recorded permission decision (Claude Code's permissionDecision …), when recorded. */
  permissionDecision: z.string().nullable(),
  /** Its place in the script, 1-based across every turn's calls (absent in older records). */
  call: z.number().int().optional(),
  /** How the transcript says the call ended (absent in records written before it was read). */
  transcriptOutcome: toolOutcomeSchema.optional(),
});

/**
 * The CLI's own resource use: its whole process tree, as the PID namespace's first process saw it
 * (the CPU of every process it reaped, in clock ticks of `resolutionMs`; the wall time from the
 * CLI's start to its reaping). Besides the CLI's own processes it holds the launch steps inside
 * the namespace after the cell view (setpriv, unshare, report.sh: a few ms) and the cell's flush.
 */
export const cliUseSchema = z.object({
  userMs: z.number(),
  systemMs: z.number(),
  cpuMs: z.number(),
  wallMs: z.number(),
  resolutionMs: z.number(),
  /**
   * pid-namespace-init: a CLI's own spawn. cell-shim: one CLI process an orchestrator started, as
   * its cell shim measured it (the CPU of the CLI and of what it waited for, not of orphans it left;
   * the wall time from its start to its reaping).
   */
  source: z.enum(["pid-namespace-init", "cell-shim"]),
  /**
   * The tree's peak memory: the high-water mark of what its processes, all at once, had charged to
   * the spawn's own memory cgroup (anonymous memory, kernel memory, and the file pages they brought
   * into the page cache; not the pages another cgroup cached first, such as the runtime's binary).
   * Absent where witness cannot make a memory cgroup (probes/isolation/memory-cgroup.ts).
   * A cell shim's is the CLI process's own peak resident set (VmHWM) instead, read every 50 ms
   * while it ran: a lower bound that leaves out its children.
   */
  peakMemory: z
    .object({
      bytes: z.number().int(),
      source: z.enum([
        "cgroup-v2-memory.peak",
        "cgroup-v1-memory.max_usage_in_bytes",
        "cli-process-vmhwm-polled",
      ]),
    })
    .optional(),
});
export type CliUse = z.infer<typeof cliUseSchema>;

/**
 * An orchestrator launch's use: its whole tree (the orchestrator, the shims and the CLIs they
 * started), as the launch's PID namespace's first process and memory cgroup measured it, and the
 * tree's CPU taken apart: the CLI processes' (their shims' figures, summed), the shims' own, and
 * the rest, the orchestrator's own with anything it started besides the CLIs.
 */
export const orchestratorUseSchema = z.object({
  tree: cliUseSchema,
  clisCpuMs: z.number(),
  shimsCpuMs: z.number(),
  ownCpuMs: z.number(),
  /** Spawns whose shim recorded no use (killed, or an older shim): their CPU is in ownCpuMs. */
  unmeasuredSpawns: z.number().int(),
});
export type OrchestratorUse = z.infer<typeof orchestratorUseSchema>;

/**
 * One CLI process an orchestrator started through its cell shim: what the orchestrator handed it
 * (argv, environment before witness's plumbing, cwd, stdin) and what it did (its requests to the
 * fake by route prefix, markers, tool calls, transcript, exit).
 */
export const spawnObservationSchema = z.object({
  /** The number the shim claimed (1, 2, …): the fake's `/s/<n>` route. */
  spawn: z.number().int().positive(),
  cli: z.string(),
  /** The arguments the orchestrator passed (after the program). */
  argv: z.array(z.string()),
  /** The environment the orchestrator gave, secrets redacted. */
  env: z.record(z.string(), z.string()),
  /** The variables the shim set over the orchestrator's (its plumbing: endpoint, key, HOME …). */
  overridden: z.array(z.string()),
  cwd: z.string(),
  /** What the orchestrator wrote on the CLI's stdin, up to the bound, redacted. */
  stdin: z.string(),
  stdinBytes: z.number().int(),
  /** What the CLI printed on stdout, up to the bound, redacted. */
  stdout: z.string(),
  stdoutBytes: z.number().int(),
  /** null when the shim recorded no end (the containment killed it). */
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** Milliseconds after the orchestrator started, and how long the CLI ran. */
  startMs: z.number(),
  durationMs: z.number().nullable(),
  requestCount: z.number().int(),
  markers: z.array(observedMarkerSchema),
  toolsOffered: z.array(z.string()),
  toolCalls: z.array(observedCallSchema),
  permissionMode: z.string().nullable(),
  transcriptFile: z.string().nullable(),
  /** Why this spawn reached no model request (its exit and stderr's end); absent when it asked. */
  noRequestReason: noRequestReasonSchema.optional(),
  /** The CLI's use as its shim measured it (absent in records before it, or when it did not end). */
  cliUse: cliUseSchema.optional(),
  /** The shim's own CPU (a Node process of witness's in the cell), ms. */
  shimCpuMs: z.number().optional(),
});
export type SpawnObservation = z.infer<typeof spawnObservationSchema>;

/** The orchestrator as a subject: its command, the packages it imported, the fixture files it ran. */
export const orchestratorSubjectSchema = z.object({
  command: z.array(z.string()),
  clis: z.array(z.string()),
  packages: z.array(z.object({ name: z.string(), version: z.string(), integrity: z.string() })),
  /** The command's arguments that name a planted fixture file, with that file's content hash. */
  files: z.array(z.object({ path: z.string(), sha256: z.string() })),
  maxSpawns: z.number().int(),
  /**
   * Model requests no shim-started process sent, from a binary the launch allows by content hash
   * (checked: the file's hash is the allowed one and the pinned CLI's): a named, unshimmed spawn.
   */
  unshimmed: z
    .array(
      z.object({
        path: z.string(),
        sha256: z.string(),
        requests: z.number().int(),
        userAgents: z.array(z.string()),
      }),
    )
    .optional(),
});
export type OrchestratorSubject = z.infer<typeof orchestratorSubjectSchema>;

/** The phases of a spawn in witness's own accounting (probes/spawn-use.ts). */
export const SPAWN_PHASES = ["prepare", "server", "launch", "spawn", "observe", "cleanup"] as const;
export type SpawnPhase = (typeof SPAWN_PHASES)[number];

/**
 * witness's own cost of one spawn, per phase: its wall time, the witness process's CPU in it
 * (shared equally among the spawns running at once), and its helper processes' CPU (every child
 * witness reaped in it, less the CLI's tree, in 10 ms ticks).
 */
export const witnessUseSchema = z.object({
  phases: z.array(
    z.object({
      phase: z.enum(SPAWN_PHASES),
      wallMs: z.number(),
      cpuMs: z.number(),
      helpersMs: z.number(),
    }),
  ),
  cpuMs: z.number(),
  helpersMs: z.number(),
  /** How many spawns ran at once at most while this one did (its CPU was shared among them). */
  concurrent: z.number().int(),
});
export type WitnessUse = z.infer<typeof witnessUseSchema>;

/** Everything one probe spawn observed. Every field comes from what the CLI did. */
/** One kind of model call a spawn made, and how the fake answered it. */
export const modelCallSchema = z.object({
  kind: z.string(),
  count: z.number().int(),
  /** The fake's answers, distinct, in first-seen order (`turn:0`, `final`, `helper:…`, `classifier:allow`). */
  answers: z.array(z.string()),
  /** What its answer can decide, for a kind whose answer can decide an outcome. */
  decides: z.string().optional(),
});
export type ModelCall = z.infer<typeof modelCallSchema>;

export const observationSchema = z.object({
  cli: z.object({ name: z.string(), version: z.string() }),
  argv: z.array(z.string()),
  /** What the CLI got on stdin, when it was given something (a prompt the orchestrator sends there). */
  stdin: z.string().optional(),
  /** The child's environment, secrets redacted. */
  env: z.record(z.string(), z.string()),
  cwd: z.string(),
  /** Inputs beyond argv and stdin: the variables the launch set or removed (`--env`, an arm's `env`). */
  launchEnv: z
    .object({
      set: z.record(z.string(), z.string()).optional(),
      unset: z.array(z.string()).optional(),
    })
    .optional(),
  /** Where the cell's root lived: the temp directory, or witness's cache directory (`cell.root`). */
  cellRoot: z.enum(["temp", "home"]).optional(),
  isolation: isolationSchema,
  /** In a network namespace: the program that bridged its loopback to the fake server. */
  netnsForwarder: z.enum(["socat", "node"]).optional(),
  /** What ran the CLI: the Node (path, version, why) first on its PATH, or none for a native binary. */
  runtime: runtimeSchema.optional(),
  /**
   * The CLI's compile cache (probes/compile-cache.ts): `off` and why, `read` from the install's
   * published cache, or `write` into the cell, published after the spawn (absent in older records).
   */
  compileCache: z
    .object({
      state: z.enum(["off", "read", "write"]),
      dir: z.string().optional(),
      why: z.string().optional(),
      published: z.boolean().optional(),
    })
    .optional(),
  /**
   * How the CLI's process tree was tied to witness and kept from its privileges: sandboxed (a PID
   * namespace, the cell view, a user namespace and host uid of its own), a PID namespace as
   * witness's user, or a process group.
   */
  containment: z.enum(["sandbox", "pidns", "process-group"]).optional(),
  /** What held around the CLI (measured inside a sandbox; as launched otherwise). */
  containmentHeld: heldSchema.optional(),
  /** The machine-wide managed files the driver names, and whether each existed at the spawn. */
  managedFiles: z.array(z.object({ path: z.string(), present: z.boolean() })).optional(),
  /** Under `managed: mask`, the directories hidden from the CLI (empty: none of its files existed). */
  managedMasked: z.array(z.string()).optional(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  /** The CLI's own resource use (absent without a PID namespace, and in older records). */
  cliUse: cliUseSchema.optional(),
  /** witness's own cost of the spawn, per phase (absent in older records). */
  witnessUse: witnessUseSchema.optional(),
  requestCount: z.number().int(),
  markers: z.array(observedMarkerSchema),
  sentinels: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      created: z.boolean(),
      /** The file's first SENTINEL_CONTENT_KEPT characters, when it was created as a file. */
      content: z.string().nullable().optional(),
      /**
       * A created sentinel: the script place of the first call that names its path and ran (or
       * ran and failed); null flags one no such call explains (absent in older records).
       */
      byCall: z.number().int().nullable().optional(),
      /** A created sentinel of a sandboxed spawn: whether the spawn's own host uid made it. */
      madeBySpawn: z.boolean().optional(),
    }),
  ),
  toolsOffered: z.array(z.string()),
  toolCalls: z.array(observedCallSchema),
  /** Claude Code: the prompt record's permissionMode; Codex: the turn context's approval policy. */
  permissionMode: z.string().nullable(),
  /** Codex: turn_context.sandbox_policy.type. */
  sandboxPolicy: z.string().nullable(),
  /** Requests besides the model calls (preconnects …), by method and path, with the status answered. */
  sideRequests: z
    .array(
      z.object({
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        count: z.number().int(),
      }),
    )
    .default([]),
  /** The CLI's own calls on the model route (warm-ups, prefix checks …), answered with text. */
  helperCalls: z.array(z.object({ kind: z.string(), count: z.number().int() })).default([]),
  /**
   * Every model call by kind (`main`, `sub-agent`, `helper:<kind>`, `permission-classifier`,
   * `unclassified`), with the fake's answers and, where its answer can decide an outcome, what
   * (probes/observe/model-calls.ts). Absent in observations older than the field.
   */
  modelCalls: z.array(modelCallSchema).optional(),
  /** The argument the CLI refused before doing anything, in its own words (null when none). */
  rejectedArgv: z.object({ flag: z.string(), message: z.string() }).nullable().default(null),
  /**
   * Why no model request reached the fake, in the CLI's own terms (set only then, and not for a
   * refused flag): its exit code, the driver's reading of it, and the end of what it printed on
   * stderr (absent in records written before it existed).
   */
  noRequestReason: noRequestReasonSchema.optional(),
  // The transcript fields below are optional: records written before they existed still parse.
  /** The transcript the CLI wrote, relative to the cell root (null when it wrote none). */
  transcriptFile: z.string().nullable().optional(),
  /** Every turn's permission mode (Claude Code) or approval policy (Codex), in order. */
  permissionModes: z.array(z.string()).optional(),
  /** Every turn's sandbox policy (Codex), in order. */
  sandboxPolicies: z.array(z.string()).optional(),
  /** The model the session named last. */
  model: z.string().nullable().optional(),
  /**
   * With `traceFiles`: how the spawn's file opens were traced (or why they could not be), and the
   * instruction-like files it read, each with the marker planted in it (null: none was planted,
   * a read nobody planted) and whether that marker reached the model.
   */
  /** Where the spawn's remotely served feature flags came from (CLIs known to consult them). */
  featureFlags: z
    .object({
      source: z.enum(["built-in", "cache", "built-in-unreachable"]),
      why: z.string(),
      values: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  fileTrace: z
    .union([
      z.object({
        by: z.literal("strace"),
        /** Files opened for reading. */
        opened: z.number().int(),
        /** Opens of a relative path (not resolved, so not classified). */
        relative: z.number().int(),
        /** Instruction-like files read that the spawn itself had made: left out of fileReads. */
        madeBySpawn: z.number().int().optional(),
      }),
      z.object({ unavailable: z.string() }),
    ])
    .optional(),
  fileReads: z
    .array(
      z.object({
        path: z.string(),
        known: z.boolean(),
        marker: z.string().nullable(),
        reachedModel: z.boolean().nullable(),
        /** The programs whose processes opened it, in order (absent in records written before it existed). */
        by: z.string().optional(),
      }),
    )
    .optional(),
  tokenUsage: tokenUsageSchema.nullable().optional(),
  /** The session's last assistant text. */
  finalText: z.string().nullable().optional(),
  /**
   * Lines of the transcript the reader could not use (unknown record or payload types, missing
   * fields, lines that are not JSON), as `file:line: …`: the CLI's format may have moved.
   */
  transcriptWarnings: z.array(z.string()).optional(),
  /** An orchestrator launch: the orchestrator that ran (the probe's second subject). */
  orchestrator: orchestratorSubjectSchema.optional(),
  /** An orchestrator launch's use, the orchestrator's own apart from its CLIs' (their `cliUse`). */
  orchestratorUse: orchestratorUseSchema.optional(),
  /** An orchestrator launch: every CLI process it started through a shim, in spawn order. */
  spawns: z.array(spawnObservationSchema).optional(),
  /** Infrastructure problems that make this spawn unfit as evidence (empty when none). */
  faults: z.array(z.string()),
  stdoutTail: z.string(),
  stderrTail: z.string(),
});
export type Observation = z.infer<typeof observationSchema>;

/**
 * An observation with its secrets redacted, once: the environment by name and value, the argv
 * (secret flags, JSON fields, key shapes), and every text the CLI printed or a tool returned; the
 * values of the environment's secret-named variables (and witness's own) wherever they appear.
 */
export function redactObservation(o: Observation): Observation {
  // The values of the spawn's own secret-named variables are secrets wherever they turn up.
  const env = o.env;
  return {
    ...o,
    argv: redactArgv(o.argv, env),
    ...(o.stdin === undefined ? {} : { stdin: redactText(o.stdin, env) }),
    env: redactEnv(env),
    ...(o.launchEnv === undefined
      ? {}
      : {
          launchEnv: {
            ...o.launchEnv,
            ...(o.launchEnv.set === undefined ? {} : { set: redactEnv(o.launchEnv.set) }),
          },
        }),
    toolCalls: redactStrings(o.toolCalls, env),
    rejectedArgv: redactStrings(o.rejectedArgv, env),
    ...(o.noRequestReason === undefined
      ? {}
      : { noRequestReason: redactStrings(o.noRequestReason, env) }),
    ...(o.spawns === undefined ? {} : { spawns: o.spawns.map(redactSpawn) }),
    faults: redactStrings(o.faults, env),
    stdoutTail: redactStrings(o.stdoutTail, env),
    stderrTail: redactStrings(o.stderrTail, env),
  };
}

function redactSpawn(s: SpawnObservation): SpawnObservation {
  const env = s.env;
  return {
    ...s,
    argv: redactArgv(s.argv, env),
    env: redactEnv(env),
    stdin: redactText(s.stdin, env),
    stdout: redactText(s.stdout, env),
    toolCalls: redactStrings(s.toolCalls, env),
    ...(s.noRequestReason === undefined
      ? {}
      : { noRequestReason: redactStrings(s.noRequestReason, env) }),
  };
}

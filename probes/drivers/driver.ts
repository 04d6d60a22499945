// The contract every CLI's driver fulfils: everything specific to one CLI, asked for by the cell,
// the runner and the observer, which never branch on a CLI's name.
import type { CliRow } from "../../clis/catalog.js";
import type { ProbeCliName } from "../../clis/names.js";
import type { CallClassifier, RecordedCall } from "../../clis/outcome.js";
import type { TokenUsage, ToolOutcome } from "../contracts/observation.js";
import type { SideRoute } from "../fake/side-routes.js";
import type { CallNaming, HelperRecognizer, WireProtocol } from "../fake/wire.js";

/** Where a spawn's cell lives, as a driver needs it. */
export interface CellPaths {
  root: string;
  home: string;
  workspace: string;
  codexHome: string;
}

/** What a driver adds to one spawn so the CLI talks to the fake server and stays quiet. */
export interface DriverLaunch {
  /** The arguments after the binary. */
  args: string[];
  /** Variables on top of the cell's environment (the endpoint, a dummy key, quiet switches). */
  env: Record<string, string>;
  /** Text for the CLI's standard input (a prompt some CLIs mangle as an argument); empty when absent. */
  stdin?: string;
}

/** What a driver's `prepare` gets: the cell, the child's final environment and the endpoint. */
export interface PrepareInput {
  cell: CellPaths;
  env: Readonly<Record<string, string>>;
  baseUrl: string;
  version: string;
}

/** What the CLI recorded about its own session, as the observer uses it. */
export interface TranscriptFacts {
  path: string | null;
  /** The marker values (of those asked for) found anywhere in the transcript. */
  markersSeen: ReadonlySet<string>;
  /** The latest turn's permission mode (Claude Code) or approval policy (Codex). */
  permissionMode: string | null;
  /** Every turn's, in order (one entry per turn the CLI recorded). */
  permissionModes: string[];
  /** The latest turn's sandbox policy (Codex). */
  sandboxPolicy: string | null;
  sandboxPolicies: string[];
  /** Per tool call id, what the session recorded about it (decision, status, its own result …). */
  calls: Map<string, RecordedCall>;
  /** Per tool call id, how the transcript alone says the call ended. */
  outcomes: Map<string, ToolOutcome>;
  /** The last model the session named. */
  model: string | null;
  tokenUsage: TokenUsage | null;
  /** The last assistant text. */
  finalText: string | null;
  /** What the reader could not use, as `file:line: …` lines (empty when it read everything). */
  warnings: string[];
}

/** What the runner hands readTranscript besides the environment: what to look for, what the CLI printed. */
export interface TranscriptHints {
  /** Marker values to search the transcript for. */
  markers: readonly string[];
  /** The CLI's stdout and stderr: the session id it reported picks the right file. */
  stdout: string;
  stderr: string;
}

/** A transcript with nothing in it: the CLI wrote none, or none was found. */
export function noTranscript(): TranscriptFacts {
  return {
    path: null,
    markersSeen: new Set(),
    permissionMode: null,
    permissionModes: [],
    sandboxPolicy: null,
    sandboxPolicies: [],
    calls: new Map(),
    outcomes: new Map(),
    model: null,
    tokenUsage: null,
    finalText: null,
    warnings: [],
  };
}

/** An argument the CLI refused before doing anything: the flag, and the CLI's own words. */
export interface RejectedArgv {
  flag: string;
  message: string;
}

/** One CLI, as the probe cell drives it (function-valued fields, so they may be passed around). */
export interface ProbeDriver {
  readonly name: ProbeCliName;
  /** Packages, binary and display name (from the catalog). */
  readonly info: CliRow;
  /** The fake model API the CLI speaks. */
  readonly wire: WireProtocol;
  /** How scripted calls are named for this CLI (its shell tool, its own tool names). */
  readonly naming: CallNaming;
  /**
   * The argv, environment and stdin that point version `version` at the fake server at `baseUrl`
   * (`cell` is absent only where no cell exists, e.g. a unit test of the argv). With `prepareCell`
   * it also bounds the CLI's retries, so a scripted 5xx or cut stream ends the spawn in seconds.
   */
  launch: (input: {
    argv: readonly string[];
    baseUrl: string;
    version: string;
    cell?: CellPaths;
    /** The launch's own stdin (a rendered node's prompt, or a probe's `stdin`). */
    stdin?: string;
  }) => DriverLaunch;
  /** Marks the workspace trusted in the CLI's own configuration (inside the cell), as `version` reads it. */
  readonly trustWorkspace: (cell: CellPaths, version?: string) => Promise<void>;
  /** The non-model requests `version` sends, each answered as a harmless service would. */
  readonly sideRoutes?: (version: string) => readonly SideRoute[];
  /** Recognises the CLI's own calls on its model route, answered with text (default none). */
  readonly helperCall?: HelperRecognizer;
  /** The flag the CLI refused, read from a spawn that exited non-zero before any model request. */
  readonly rejectedArgv?: (stderr: string) => RejectedArgv | null;
  /**
   * Plants what the CLI needs in the cell's HOME to run headless against the fake (its settings
   * file, merged under whatever the fixture planted there), before trust is set. Optional.
   */
  prepareCell?: (cell: CellPaths) => Promise<void>;
  /**
   * Writes what the CLI needs once the endpoint and the child's environment are known (a provider
   * configuration naming the port, seeds that stop background installs), just before the spawn.
   */
  prepare?: (input: PrepareInput) => Promise<void>;
  /** Finds and reads the session the CLI wrote, where the child's environment points it. */
  readTranscript: (
    env: Readonly<Record<string, string>>,
    hints: TranscriptHints,
  ) => Promise<TranscriptFacts>;
  /**
   * How a tool call ended, from the result the CLI sent back and what its session recorded: the
   * CLI's one classifier (`clis/<cli>/outcome.ts`), the one `witness transcript` uses too.
   */
  readonly classify: CallClassifier;
  /**
   * How a recorded fixture keeps the session: the stable name its main file is copied under
   * (absent: its own name) and the suffixed files that belong to it (opencode's `-wal`).
   */
  readonly sessionFixture?: { name?: string; companions?: readonly string[] };
  /**
   * Where the spawn's remotely served feature flags come from, read before it starts (the CLI's
   * environment and the cache in its HOME); absent for a CLI not known to consult any.
   */
  readonly featureFlags?: (input: PrepareInput) => Promise<FeatureFlags>;
  /**
   * How a fixture sets feature flags (`fixture.featureFlags`): `plant` writes the values where the
   * CLI caches them in HOME, and `offSwitch` is the variable of the driver's launch that keeps the
   * CLI from reading that cache, left out for such a spawn. Absent for a CLI without a known cache.
   */
  readonly flagCache?: {
    plant: (home: string, values: Readonly<Record<string, unknown>>) => Promise<void>;
    offSwitch: string;
  };
}

/** The feature-flag input of one spawn: its source, and the cached values when there are any. */
export interface FeatureFlags {
  /** `built-in`: the flag service is off, the release's compiled defaults apply; `cache`: values cached in HOME apply (offline); `built-in-unreachable`: the service is on but unreachable and nothing is cached. */
  source: "built-in" | "cache" | "built-in-unreachable";
  /** Why, in a few words (the variable or file that decided it). */
  why: string;
  /** The cached values, when the cache applies. */
  values?: Record<string, unknown>;
}

/** The driver's launch variables a fixture's feature flags leave out (its cache's off switch). */
export function flagSwitches(
  driver: Pick<ProbeDriver, "flagCache">,
  fixture: { featureFlags?: unknown },
): string[] {
  return fixture.featureFlags === undefined || driver.flagCache === undefined
    ? []
    : [driver.flagCache.offSwitch];
}

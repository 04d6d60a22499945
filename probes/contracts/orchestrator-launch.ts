// The orchestrator launch: a command of any language run inside the cell, which spawns the pinned
// CLIs itself, each through a recording pass-through shim in the cell (probes/orchestrated/).
import { z } from "zod";

import { probeCliNameSchema } from "../../clis/names.js";
import { launchEnvSchema } from "./launch-env.js";

/** Spawns an orchestrator may make when its launch names no bound. */
export const DEFAULT_MAX_SPAWNS = 16;
/** The largest bound a launch may set: a shim refuses every spawn past the launch's bound. */
export const MAX_SPAWNS_LIMIT = 256;

const noNul = z.string().refine((a) => !a.includes("\0"), "expected an argument without NUL");

/** `name@exact.version` of an npm package; scoped names allowed. */
export const packagePinSchema = z
  .string()
  .regex(
    /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*@\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/,
    "expected <package>@<exact version>, e.g. @anthropic-ai/claude-agent-sdk@0.3.332",
  );

/**
 * A binary the orchestrator may run without a shim (an SDK's bundled copy of the CLI): its path
 * in the cell (`node_modules/…`, where the launch's packages are seen) and its content hash. It is
 * allowed only when the file there has that hash and is byte-identical to the pinned CLI's.
 */
export const allowUnshimmedSchema = z.strictObject({
  path: z
    .string()
    .regex(
      /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\0\\]+$/,
      "expected a path inside the cell, relative, without . or .. segments",
    ),
  sha256: z.string().regex(/^sha256:[0-9a-f]{64}$/, "expected sha256:<64 hex digits>"),
});
export type AllowUnshimmed = z.infer<typeof allowUnshimmedSchema>;

/**
 * The orchestrator: its `command` (argv, the program first, looked up on the cell's PATH), the
 * CLIs it may spawn (each offered as `WITNESS_CLI_<NAME>` and `{{path:cli:<name>}}`), its own
 * variables, stdin, the npm packages it imports (installed into the vendor cache, seen from the
 * cell as `<cell>/node_modules`) and the most spawns it may make.
 */
export const orchestratorLaunchSchema = z.strictObject({
  command: z.array(noNul).min(1, "expected the program and its arguments"),
  clis: z.array(probeCliNameSchema).min(1, "expected the CLIs the orchestrator may spawn"),
  env: launchEnvSchema.optional(),
  stdin: z.string().optional(),
  packages: z.array(packagePinSchema).max(32).optional(),
  maxSpawns: z.number().int().min(1).max(MAX_SPAWNS_LIMIT).optional(),
  /** Binaries it may run without a shim, by content hash (absent from the lock when omitted). */
  allowUnshimmed: z.array(allowUnshimmedSchema).min(1).max(8).optional(),
});
export type OrchestratorLaunch = z.infer<typeof orchestratorLaunchSchema>;

/** The variable that hands a CLI's shim to the orchestrator: `claude-code` → `WITNESS_CLI_CLAUDE_CODE`. */
export function cliPathVariable(name: string): string {
  return `WITNESS_CLI_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

const CLI_PATH_RE = /\{\{path:cli:([^}]*)\}\}/g;

/** Every `{{path:cli:<name>}}` naming a CLI the launch does not list, with where it is. */
export function unlistedCliPaths(
  value: unknown,
  clis: readonly string[],
  at: (string | number)[] = [],
): { path: (string | number)[]; name: string }[] {
  if (typeof value === "string")
    return [...value.matchAll(CLI_PATH_RE)]
      .map((m) => m[1] ?? "")
      .filter((name) => !clis.includes(name))
      .map((name) => ({ path: at, name }));
  if (Array.isArray(value)) return value.flatMap((v, i) => unlistedCliPaths(v, clis, [...at, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => unlistedCliPaths(v, clis, [...at, k]));
  return [];
}

/** Replaces each `{{path:cli:<name>}}` with that CLI's shim path (names already checked). */
export function resolveCliPaths<T>(value: T, shims: Readonly<Record<string, string>>): T {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) =>
      typeof v === "string"
        ? v.replace(CLI_PATH_RE, (whole, name: string) => shims[name] ?? whole)
        : v,
    ),
  ) as T;
}

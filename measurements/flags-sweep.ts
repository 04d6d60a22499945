// `witness flags`: how sensitive each arm's verdict is to the CLI's remotely served flags. Each arm
// runs as locked, then once per known flag and value with that value cached in the cell
// (`fixture.featureFlags`); a variant whose verdict differs from the arm's names a flag the
// evidence depends on. The variants change the fixture, so they are never a record of the protocol.
import { isAbsolute, resolve } from "node:path";

import { CLI_CATALOG, type CliRow } from "../clis/catalog.js";
import { UsageError } from "../core/errors.js";
import type { Protocol } from "../prereg/protocol.js";
import { refuseUnlessLocked, verifyProtocols } from "../prereg/verify.js";
import type { CliRef } from "../probes/contracts/probe-spec.js";
import { defaultInstall } from "./bisect.js";
import type { Verdict } from "./record.js";
import type { InstallFn } from "./run-options.js";
import { runProtocol } from "./run-protocols.js";
import type { ProbeFn } from "./runner.js";

type Arm = Protocol["arms"][number];

/** One arm run with one flag cached at one value. */
export interface FlagVariant {
  flag: string;
  value: boolean;
  verdict: Verdict;
  /** The verdict differs from the arm's as locked. */
  changed: boolean;
}

/** An arm as locked, and each flag variant of it. */
export interface FlagSweepRow {
  arm: string;
  verdict: Verdict;
  variants: FlagVariant[];
}

export interface FlagSweepResult {
  protocol: string;
  cli: string;
  flags: string[];
  rows: FlagSweepRow[];
}

export interface FlagSweepOptions {
  file: string;
  cwd?: string;
  /** Another version of the protocol's CLI (default: the protocol's). */
  cli?: CliRef;
  /** Flags to flip (default: the catalog's known ones for the CLI). */
  flags?: readonly string[];
  /** Only these arms (default: every arm). */
  arms?: readonly string[];
  spawns?: number;
  jobs?: number;
  cacheDir?: string;
  probe?: ProbeFn;
  install?: InstallFn;
  signal?: AbortSignal;
}

/** One arm's variant: the arm with `flag` cached at `value`, under an id of its own. */
interface Variant {
  of: string;
  flag: string;
  value: boolean;
  arm: Arm;
}

/** Each arm's variants: every flag at both values, but a value the arm already caches. */
export function variantsOf(arm: Arm, flags: readonly string[]): Variant[] {
  return flags.flatMap((flag) =>
    [true, false]
      .filter((value) => arm.fixture.featureFlags?.[flag] !== value)
      .map((value) => ({
        of: arm.id,
        flag,
        value,
        arm: {
          ...arm,
          id: `${arm.id}~${flag}=${String(value)}`,
          fixture: { ...arm.fixture, featureFlags: { ...arm.fixture.featureFlags, [flag]: value } },
        },
      })),
  );
}

/** Runs the sweep: one run of every arm and variant, through the same spawn step as `witness run`. */
export async function sweepFlags(options: FlagSweepOptions): Promise<FlagSweepResult> {
  const cwd = options.cwd ?? process.cwd();
  const file = isAbsolute(options.file) ? options.file : resolve(cwd, options.file);
  const [check] = await verifyProtocols({ cwd, files: [file] });
  if (check === undefined) throw new UsageError(`${options.file}: no such protocol`);
  refuseUnlessLocked(check);
  const protocol = check.loaded.protocol;
  const name = protocol.cli.name;
  const row = (CLI_CATALOG as Record<string, CliRow>)[name];
  if (row?.flagCache === undefined)
    throw new UsageError(
      `${options.file}: cli: expected a CLI whose flag cache witness knows; ${name} has none`,
    );
  if (options.cli !== undefined && options.cli.name !== name)
    throw new UsageError(`--cli: expected a version of ${name}, the protocol's CLI`);
  const flags = options.flags ?? row.flagCache.known.map((f) => f.name);
  const badFlag = flags.find((f) => !/^[A-Za-z0-9_.-]+$/.test(f));
  if (badFlag !== undefined)
    throw new UsageError(
      `--flag: expected a flag name of letters, digits, _, . and -; got ${JSON.stringify(badFlag)}`,
    );
  const unknownArm = options.arms?.find((a) => !protocol.arms.some((arm) => arm.id === a));
  if (unknownArm !== undefined)
    throw new UsageError(
      `--arm: expected an arm of ${protocol.id} (${protocol.arms.map((a) => a.id).join(", ")}); got ${unknownArm}`,
    );
  const chosen = protocol.arms.filter((a) => options.arms?.includes(a.id) ?? true);
  const orchestrated = chosen.find((a) => "orchestrator" in a.launch);
  if (orchestrated !== undefined)
    throw new UsageError(
      `${options.file}: arm ${orchestrated.id}: an orchestrator launch does not take flags yet`,
    );
  const cli = options.cli ?? protocol.cli;
  const pins = chosen.flatMap((a) => (a.runtime ? [a.runtime.node] : []));
  await (options.install ?? defaultInstall)([cli], options.cacheDir, pins);
  const variants = chosen.flatMap((arm) => variantsOf(arm, flags));
  const swept = { ...protocol, arms: [...chosen, ...variants.map((v) => v.arm)] };
  const record = await runProtocol(
    { ...check, loaded: { ...check.loaded, protocol: swept } },
    {
      cli,
      probe: options.probe,
      spawns: options.spawns,
      jobs: options.jobs,
      cacheDir: options.cacheDir,
      signal: options.signal,
    },
  );
  const verdictOf = new Map(record.arms.map((a) => [a.id, a.verdict]));
  const rows = chosen.map((arm) => {
    const verdict = verdictOf.get(arm.id) ?? "inconclusive";
    return {
      arm: arm.id,
      verdict,
      variants: variants
        .filter((v) => v.of === arm.id)
        .map(({ flag, value, arm: v }) => {
          const got = verdictOf.get(v.id) ?? "inconclusive";
          return { flag, value, verdict: got, changed: got !== verdict };
        }),
    };
  });
  return { protocol: protocol.id, cli: `${cli.name}@${cli.version}`, flags: [...flags], rows };
}

/** The sweep as Markdown: an arm per line, a column per flag value. */
export function renderFlagSweep(result: FlagSweepResult): string {
  const columns = result.flags.flatMap((f) => [`${f}=true`, `${f}=false`]);
  const lines = [
    `protocol ${result.protocol} on ${result.cli}: each arm as locked, then with each flag cached at each value`,
    "",
    `| arm | as locked | ${columns.join(" | ")} |`,
    `|---|---|${columns.map(() => "---|").join("")}`,
  ];
  for (const row of result.rows) {
    const cells = columns.map((c) => {
      const v = row.variants.find((x) => `${x.flag}=${String(x.value)}` === c);
      if (v === undefined) return "(as locked)";
      return v.changed ? `**${v.verdict}**` : v.verdict;
    });
    lines.push(`| ${row.arm} | ${row.verdict} | ${cells.join(" | ")} |`);
  }
  const changed = result.rows.flatMap((r) =>
    r.variants.filter((v) => v.changed).map((v) => `${r.arm}: ${v.flag}=${String(v.value)}`),
  );
  lines.push(
    "",
    changed.length === 0
      ? "no flag value changed a verdict"
      : `verdicts that follow a flag (in bold above): ${changed.join("; ")}`,
    "",
  );
  return lines.join("\n");
}

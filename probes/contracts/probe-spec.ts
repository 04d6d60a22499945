import { z } from "zod";

import { canonicalCliName, probeCliNameSchema, unsupportedCli } from "../../clis/names.js";
import { UsageError } from "../../core/errors.js";
import { compareVersions } from "../../core/version-order.js";
import { type Fixture, fixtureSchema, flagProblems, layoutProblems } from "./fixture.js";
import { launchEnvProblems, launchEnvSchema } from "./launch-env.js";
import { orchestratorLaunchSchema, unlistedCliPaths } from "./orchestrator-launch.js";
import { unknownPathRoots, unknownRootMessage } from "./placeholders.js";
import { nodePinSchema } from "./runtime.js";
import { type Script, scriptSchema, sentinelNames } from "./script.js";

export { type ProbeCliName, probeCliNameSchema } from "../../clis/names.js";

/** `name@exact.version`, e.g. `claude-code@2.1.332`. */
export const cliRefSchema = z.strictObject({
  name: probeCliNameSchema,
  version: z
    .string()
    .regex(/^\d+\.\d+\.\d+([-.+][0-9A-Za-z.-]+)?$/, "expected an exact version like 2.1.332"),
});
export type CliRef = z.infer<typeof cliRefSchema>;

/**
 * How the CLI is launched: a reference-orchestrator node (its rendered argv), or raw argv
 * (the arguments after the binary). The cell adds only the plumbing to reach the fake server.
 * The node's shape is checked by the orchestrator's node schema where it is rendered.
 */
export const launchSchema = z.union([
  z.strictObject({
    node: z.record(z.string(), z.unknown()),
    /** Run flags of the reference orchestrator. */
    acceptLoadedUserConfig: z.boolean().default(false),
    /** Variables this arm sets or removes (absent: the cell's and the driver's only). */
    env: launchEnvSchema.optional(),
  }),
  z.strictObject({
    // A NUL cannot be passed in an argument: refused here, not by a crash at spawn time.
    argv: z.array(z.string().refine((a) => !a.includes("\0"), "expected an argument without NUL")),
    env: launchEnvSchema.optional(),
    /** Text for the CLI's standard input, e.g. a prompt (absent: stdin is empty). */
    stdin: z.string().optional(),
  }),
  z.strictObject({ orchestrator: orchestratorLaunchSchema }),
]);
export type Launch = z.infer<typeof launchSchema>;

/**
 * What is wrong with a launch beyond its shape: variables it may not touch, and for an
 * orchestrator a CLI other than the pinned one (one pin per probe) or a `{{path:cli:<name>}}`
 * naming a CLI it does not list.
 */
export function launchProblems(
  cli: string,
  launch: Launch,
): { path: (string | number)[]; message: string }[] {
  if (!("orchestrator" in launch))
    return launchEnvProblems(launch.env).map((p) => ({ ...p, path: ["env", ...p.path] }));
  const o = launch.orchestrator;
  const problems = launchEnvProblems(o.env).map((p) => ({
    ...p,
    path: ["orchestrator", "env", ...p.path],
  }));
  o.clis.forEach((name, i) => {
    if (name !== cli)
      problems.push({
        path: ["orchestrator", "clis", i],
        message: `expected the probe's pinned CLI (${cli}); got "${name}", which has no version pinned here`,
      });
  });
  for (const { path, name } of unlistedCliPaths(o, o.clis, ["orchestrator"]))
    problems.push({
      path,
      message: `expected {{path:cli:<name>}} naming a CLI of orchestrator.clis (${o.clis.join(", ")}); got "${name}"`,
    });
  return problems;
}

/** Names the fixture's `sentinelsIn` places that the script never uses (a placement of nothing). */
export function unusedSentinelPlacements(fixture: Fixture, script: Script): string[] {
  const used = sentinelNames(script);
  return Object.keys(fixture.sentinelsIn ?? {}).filter((name) => !used.includes(name));
}

/** Everything one probe spawn needs. */
export const probeSpecSchema = z
  .strictObject({
    cli: cliRefSchema,
    fixture: fixtureSchema.default({ workspace: "outside-home", trust: false, files: [] }),
    script: scriptSchema.default({ turns: [], final: "done", classifier: "allow" }),
    launch: launchSchema,
    timeoutMs: z.number().int().positive().default(60_000),
    /** The Node to run a Node CLI on (absent: the one its engines.node asks for). */
    runtime: nodePinSchema.optional(),
    /** Trace the files the spawn opens (strace) and report the instruction-like ones it read. */
    traceFiles: z.boolean().optional(),
  })
  .superRefine((spec, ctx) => {
    for (const problem of [
      ...layoutProblems(spec.fixture),
      ...flagProblems(spec.fixture, spec.cli.name, spec.launch),
    ])
      ctx.addIssue({
        code: "custom",
        path: ["fixture", ...problem.path],
        message: problem.message,
      });
    const placed = {
      fixture: { files: spec.fixture.files },
      launch: spec.launch,
      script: spec.script,
    };
    for (const { path, root } of unknownPathRoots(placed))
      ctx.addIssue({ code: "custom", path, message: unknownRootMessage(root) });
    for (const problem of launchProblems(spec.cli.name, spec.launch))
      ctx.addIssue({ code: "custom", path: ["launch", ...problem.path], message: problem.message });
    const used = sentinelNames(spec.script);
    for (const name of unusedSentinelPlacements(spec.fixture, spec.script)) {
      ctx.addIssue({
        code: "custom",
        path: ["fixture", "sentinelsIn", name],
        message: `expected a sentinel the script names (${used.join(", ") || "none"}); got "${name}"`,
      });
    }
  });
export type ProbeSpec = z.infer<typeof probeSpecSchema>;

/**
 * Parses `claude-code@2.1.332` (a CLI's alias or npm package name works too: `claude@…`,
 * `@openai/codex@…`). A UsageError says which part is wrong: the form, the name (listing the
 * supported ones) or the version. `what` names where the text came from, e.g. `--cli`.
 */
export function parseCliRef(text: string, what = "--cli"): CliRef {
  const at = text.lastIndexOf("@");
  const form = "expected <cli>@<exact version>, e.g. claude-code@2.1.332";
  if (at <= 0) throw new UsageError(`${what} ${JSON.stringify(text)}: ${form}`);
  const rawName = text.slice(0, at);
  const name = canonicalCliName(rawName);
  if (name === null)
    throw new UsageError(`${what} ${JSON.stringify(text)}: ${unsupportedCli(rawName)}`);
  const result = cliRefSchema.safeParse({ name, version: text.slice(at + 1) });
  if (!result.success) {
    throw new UsageError(`${what} ${JSON.stringify(text)}: expected an exact version like 2.1.332`);
  }
  return result.data;
}

/** A range of one CLI's versions, `from` strictly before `to`. */
export interface CliRange {
  name: CliRef["name"];
  from: string;
  to: string;
}

/**
 * Parses `claude-code@2.1.282..2.1.300` (the second end may repeat the name). A UsageError says
 * what is wrong: the form, either end, ends of two different CLIs, or ends reversed or equal.
 */
export function parseCliRange(text: string, what = "--cli"): CliRange {
  const form = "expected <cli>@<from>..<to>, e.g. claude-code@2.1.282..2.1.300";
  const [left, right, ...rest] = text.split("..");
  if (left === undefined || right === undefined || rest.length > 0 || right === "")
    throw new UsageError(`${what} ${JSON.stringify(text)}: ${form}`);
  const from = parseCliRef(left, what);
  const to = right.includes("@")
    ? parseCliRef(right, what)
    : parseCliRef(`${from.name}@${right}`, what);
  if (to.name !== from.name)
    throw new UsageError(
      `${what} ${JSON.stringify(text)}: both ends must be versions of one CLI (got ${from.name} and ${to.name})`,
    );
  const order = compareVersions(from.version, to.version);
  if (order === 0)
    throw new UsageError(
      `${what} ${JSON.stringify(text)}: the range's ends are equal; expected <from> before <to>`,
    );
  if (order > 0)
    throw new UsageError(
      `${what} ${JSON.stringify(text)}: the range is reversed (${from.version} comes after ${to.version}); expected <from> before <to>`,
    );
  return { name: from.name, from: from.version, to: to.version };
}

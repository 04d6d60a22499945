// Predicates over an orchestrator launch's spawns: which spawn a predicate reads (`spawn: n`,
// `any`, `all`), what a spawn was handed (`spawned`: argv and environment matched as data) and how
// many spawns there were (`spawn-count`).
import { z } from "zod";

import type { Observation, SpawnObservation } from "../probes/contracts/observation.js";

/** Which spawn a predicate reads: the n-th (1-based), any of them, or every one. */
export const spawnSelectorSchema = z.union([
  z.number().int().min(1, "expected a spawn number of 1 or more"),
  z.enum(["any", "all"]),
]);
export type SpawnSelector = z.infer<typeof spawnSelectorSchema>;

/**
 * A value matcher as data, as `witness shim assert` spells it: a string is that exact value;
 * `{contains}`, `{startsWith}`, `{matches}` (a regular expression, u flag), `{anything: true}`.
 */
export const valueMatcherSchema = z.union([
  z.string(),
  z.strictObject({ contains: z.string() }),
  z.strictObject({ startsWith: z.string() }),
  z.strictObject({
    matches: z.string().refine(
      (s) => {
        try {
          new RegExp(s, "u");
          return true;
        } catch {
          return false;
        }
      },
      { message: "expected a valid regular expression" },
    ),
  }),
  z.strictObject({ anything: z.literal(true) }),
]);
export type ValueMatcher = z.infer<typeof valueMatcherSchema>;

/**
 * A spawn was handed this argv (every element, in order: `argv`) or these arguments somewhere in
 * it (`argvIncludes`), these variables (`env`: a matcher, or null for "must be absent"), and a
 * standard input its matcher fits (`stdin`: what the shim kept, up to its bound; an SDK's
 * `initialize` line travels there, not in argv).
 */
export const spawnedSchema = z
  .strictObject({
    kind: z.literal("spawned"),
    spawn: spawnSelectorSchema.default("any"),
    argv: z.array(valueMatcherSchema).optional(),
    argvIncludes: z.array(valueMatcherSchema).optional(),
    env: z.record(z.string(), valueMatcherSchema.nullable()).optional(),
    stdin: valueMatcherSchema.optional(),
  })
  .superRefine((p, ctx) => {
    if (
      p.argv === undefined &&
      p.argvIncludes === undefined &&
      p.env === undefined &&
      p.stdin === undefined
    )
      ctx.addIssue({
        code: "custom",
        path: ["argv"],
        message: "expected argv, argvIncludes, env or stdin to match",
      });
  });

/** How many CLI processes the orchestrator started through its shims. */
export const spawnCountSchema = z
  .strictObject({
    kind: z.literal("spawn-count"),
    equals: z.number().int().min(0).optional(),
    atLeast: z.number().int().min(0).optional(),
    atMost: z.number().int().min(0).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.equals === undefined && p.atLeast === undefined && p.atMost === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["equals"],
        message: "expected equals, atLeast or atMost",
      });
  });

/** Whether `value` satisfies `m`. */
export function matchValue(m: ValueMatcher, value: string): boolean {
  if (typeof m === "string") return value === m;
  if ("contains" in m) return value.includes(m.contains);
  if ("startsWith" in m) return value.startsWith(m.startsWith);
  if ("matches" in m) return new RegExp(m.matches, "u").test(value);
  return true;
}

function argvFits(p: z.infer<typeof spawnedSchema>, argv: readonly string[]): boolean {
  if (p.argv !== undefined)
    if (p.argv.length !== argv.length || !p.argv.every((m, i) => matchValue(m, argv[i] ?? "")))
      return false;
  return (p.argvIncludes ?? []).every((m) => argv.some((a) => matchValue(m, a)));
}

function envFits(p: z.infer<typeof spawnedSchema>, env: Readonly<Record<string, string>>): boolean {
  return Object.entries(p.env ?? {}).every(([name, m]) => {
    const has = Object.hasOwn(env, name);
    if (m === null) return !has;
    return has && matchValue(m, env[name] ?? "");
  });
}

/** The spawns a selector reads, or why it reads none (a selector beyond the spawns seen). */
export function selectSpawns(
  obs: Observation,
  selector: SpawnSelector,
): { spawns: SpawnObservation[]; problem: string | null } {
  const spawns = obs.spawns;
  if (spawns === undefined)
    return { spawns: [], problem: "no spawns to select: the launch was not an orchestrator's" };
  if (typeof selector === "number") {
    const one = spawns.find((s) => s.spawn === selector);
    return one === undefined
      ? {
          spawns: [],
          problem: `spawn-selector: spawn ${selector} selected, but the orchestrator made ${spawns.length} spawn(s)`,
        }
      : { spawns: [one], problem: null };
  }
  if (spawns.length === 0)
    return {
      spawns: [],
      problem: `spawn-selector: spawn ${selector} selected, but the orchestrator made none`,
    };
  return { spawns, problem: null };
}

/** `spawned`: some (any), every (all) or the selected spawn was handed the argv and env. */
export function spawnedResult(
  p: z.infer<typeof spawnedSchema>,
  obs: Observation,
): { pass: boolean; explanation: string } {
  const { spawns, problem } = selectSpawns(obs, p.spawn);
  if (problem !== null) return { pass: false, explanation: problem };
  const fits = spawns.filter(
    (s) =>
      argvFits(p, s.argv) &&
      envFits(p, s.env) &&
      (p.stdin === undefined || matchValue(p.stdin, s.stdin)),
  );
  const pass = p.spawn === "any" ? fits.length > 0 : fits.length === spawns.length;
  const seen = spawns.map((s) => `spawn ${s.spawn}: ${JSON.stringify(s.argv)}`).join("; ");
  return { pass, explanation: `${fits.length} of ${spawns.length} spawn(s) matched (${seen})` };
}

/** `spawn-count`: the number of spawns against its bounds. */
export function spawnCountResult(
  p: z.infer<typeof spawnCountSchema>,
  obs: Observation,
): { pass: boolean; explanation: string } {
  const n = obs.spawns?.length ?? 0;
  const pass =
    (p.equals === undefined || n === p.equals) &&
    (p.atLeast === undefined || n >= p.atLeast) &&
    (p.atMost === undefined || n <= p.atMost);
  return { pass, explanation: `${n} spawn(s) through the shims` };
}

/** The observation as one spawn saw it: its markers, tools, calls, exit, permission mode and why it asked nothing. */
export function spawnView(obs: Observation, s: SpawnObservation): Observation {
  // The spawn's own reason, or none: never the launch's (an orchestrator has none of its own).
  return {
    ...obs,
    noRequestReason: s.noRequestReason,
    markers: s.markers,
    toolsOffered: s.toolsOffered,
    toolCalls: s.toolCalls,
    exitCode: s.exitCode,
    permissionMode: s.permissionMode,
    requestCount: s.requestCount,
  };
}

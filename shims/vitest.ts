// Vitest helpers for users' tests: a scoped shim directory on PATH, and matchers over its log.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

import { expect } from "vitest";

import { checkSpawned, type SpawnExpectation, unmetPlans } from "./assertions.js";
import { installShims } from "./install.js";
import type { ShimRecord } from "./log-schema.js";
import { readShimLogSync, type ShimLog } from "./read-log.js";
import type { BehaviourInput, OutcomeInput, StdinMode } from "./shim-spec.js";
import { readPlanLengths } from "./state-dir.js";

/** How one shim in `withShims` behaves: a scripted outcome, a per-call plan, or pass-through. */
export type ShimSetup =
  OutcomeInput | { plan: OutcomeInput[] } | { passThrough: true; target?: string };

/** Options shared by every shim of one `withShims` scope. */
export interface WithShimsOptions {
  /** Environment selectors recorded; default the adapter variables. */
  env?: readonly string[];
  stdin?: StdinMode;
}

/** A live shim scope: where the shims are, the PATH and env to hand to children, and the log. */
export interface ShimSession {
  dir: string;
  log: string;
  /** PATH with the shim directory first (also set on process.env.PATH inside the scope). */
  path: string;
  /** A copy of process.env with that PATH, for code that passes an explicit environment. */
  env: Record<string, string>;
  /** Reads the log now. */
  read(): ShimLog;
  /** Every way the plans of this scope went unmet so far. */
  unmetPlans(): string[];
}

function behaviourOf(setup: ShimSetup): BehaviourInput {
  if ("plan" in setup) return { kind: "plan", calls: setup.plan };
  if ("passThrough" in setup) {
    return setup.target === undefined
      ? { kind: "pass-through" }
      : { kind: "pass-through", target: setup.target };
  }
  return { kind: "script", outcome: setup };
}

// The default log sits in the shim directory, beside the state folder.
const plansBeside = (log: string) => readPlanLengths(dirname(log));

/** Installs the shims into a temp dir, puts it first on PATH while `fn` runs, then restores PATH and deletes the dir. */
export async function withShims<T>(
  setup: Readonly<Record<string, ShimSetup>>,
  fn: (session: ShimSession) => T | Promise<T>,
  options: WithShimsOptions = {},
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "witness-shims-"));
  const previous = process.env.PATH;
  try {
    const basePath = previous ?? "";
    let log = join(dir, "shims.jsonl");
    for (const [name, one] of Object.entries(setup)) {
      const installed = await installShims({
        dir,
        names: [name],
        behaviour: behaviourOf(one),
        path: basePath,
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      });
      log = installed.log;
    }
    const path = basePath === "" ? dir : `${dir}${delimiter}${basePath}`;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env.PATH = path;
    const session: ShimSession = {
      dir,
      log,
      path,
      env,
      read: () => readShimLogSync(log),
      unmetPlans: () => unmetPlans(readShimLogSync(log).records, plansBeside(log)),
    };
    process.env.PATH = path;
    return await fn(session);
  } finally {
    if (previous === undefined) delete process.env.PATH;
    else process.env.PATH = previous;
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the matchers accept: a session, a read log, or a log's path. */
export type ShimLogSource = ShimSession | ShimLog | string;

function recordsAndPlans(source: unknown): {
  records: ShimRecord[];
  plans: Record<string, number>;
} {
  if (typeof source === "string")
    return { records: readShimLogSync(source).records, plans: plansBeside(source) };
  if (typeof source === "object" && source !== null && "records" in source) {
    return { records: (source as ShimLog).records, plans: {} };
  }
  if (typeof source === "object" && source !== null && "read" in source && "log" in source) {
    const session = source as ShimSession;
    return { records: session.read().records, plans: plansBeside(session.log) };
  }
  throw new TypeError("expected a ShimSession, a ShimLog or the path of a shim log");
}

/** The matchers, for `expect.extend` (importing this module already registers them). */
export const shimMatchers = {
  toHaveSpawned(received: unknown, name: string, expected: SpawnExpectation = {}) {
    const { records } = recordsAndPlans(received);
    const check = checkSpawned(records, name, expected);
    return {
      pass: check.pass,
      message: () =>
        check.pass ? `expected no matching call to ${name}, but:\n${check.message}` : check.message,
    };
  },
  toHaveMetPlan(received: unknown, name?: string) {
    const { records, plans } = recordsAndPlans(received);
    const all = unmetPlans(records, plans);
    const problems = name === undefined ? all : all.filter((p) => p.startsWith(`${name}: `));
    return {
      pass: problems.length === 0,
      message: () =>
        problems.length === 0
          ? `expected an unmet plan${name === undefined ? "" : ` for ${name}`}, but every planned call arrived`
          : `unmet plan:\n  ${problems.join("\n  ")}`,
    };
  },
};

expect.extend(shimMatchers);

interface ShimMatchers<R = unknown> {
  /** The log holds a call to `name` matching `expected` (argv side by side on failure). */
  toHaveSpawned(name: string, expected?: SpawnExpectation): R;
  /** Every planned call arrived (for `name`, or for every plan) and none came beyond a plan. */
  toHaveMetPlan(name?: string): R;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends ShimMatchers<T> {}
}

import { constants } from "node:fs";
import { access, appendFile, copyFile, mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

import { writeFileAtomic } from "../core/atomic.js";
import { UsageError } from "../core/errors.js";
import { errnoCode } from "../core/fs-errors.js";
import { makeDirs } from "../core/make-dirs.js";
import { findExecutable, isExecutableFile, isWitnessShim } from "./find-executable.js";
import { findHostTools } from "./host-tools.js";
import {
  type OutputSource,
  type RenderedStep,
  renderShim,
  type ShimConfig,
} from "./render-shim.js";
import {
  type BehaviourInput,
  behaviourSchema,
  DEFAULT_ENV_PATTERNS,
  envPatternProblem,
  envPatternRegex,
  type Outcome,
  shimNameProblem,
  type StdinMode,
} from "./shim-spec.js";
import { bootClock, clearCallClaims, STATE_DIR_NAME, writePlanLengths } from "./state-dir.js";

/** What `installShims` writes and how those shims behave. */
export interface InstallShimsOptions {
  /** Directory to write the shims into (created when missing); put it first on PATH. */
  dir: string;
  /** One executable per name, all with the same behaviour. */
  names: readonly string[];
  /** The JSONL log every shim appends to; default `<dir>/shims.jsonl`. */
  log?: string;
  /** Default: exit 0 with no output. */
  behaviour?: BehaviourInput;
  /** Environment selectors recorded (names or `PREFIX*`); default DEFAULT_ENV_PATTERNS. */
  env?: readonly string[];
  /** Default `record`. */
  stdin?: StdinMode;
  /** PATH used to find the host utilities and pass-through targets; default this process's PATH. */
  path?: string;
  cwd?: string;
  /** Serialise large appends with mkdir even where flock exists (to test the fallback). */
  forceMkdirLock?: boolean;
}

/** One installed shim. */
export interface InstalledShim {
  name: string;
  file: string;
  /** The real binary a pass-through shim runs. */
  target?: string;
}

/** The result of an install: where the shims and their log are. */
export interface InstalledShims {
  dir: string;
  log: string;
  shims: InstalledShim[];
}

async function writableDir(dir: string, what: string): Promise<void> {
  try {
    await makeDirs(dir);
    await access(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new UsageError(
      `cannot write to ${what} ${dir} (${errnoCode(error, "unwritable")}); choose a directory you can write to`,
    );
  }
}

async function outputSource(
  text: string | undefined,
  file: string | undefined,
  copyTo: string,
  cwd: string,
): Promise<OutputSource> {
  if (text !== undefined) return { text };
  if (file === undefined) return undefined;
  const from = resolve(cwd, file);
  try {
    await copyFile(from, copyTo);
  } catch (error) {
    throw new UsageError(
      `cannot read the output file ${from} (${errnoCode(error)}); check the path`,
    );
  }
  return { file: copyTo };
}

async function renderStep(
  o: Outcome,
  stateDir: string,
  prefix: string,
  cwd: string,
): Promise<RenderedStep> {
  return {
    exitCode: o.exitCode,
    stdout: await outputSource(o.stdout, o.stdoutFile, join(stateDir, `${prefix}.stdout`), cwd),
    stderr: await outputSource(o.stderr, o.stderrFile, join(stateDir, `${prefix}.stderr`), cwd),
  };
}

function checkInputs(options: InstallShimsOptions): void {
  if (options.names.length === 0)
    throw new UsageError("name at least one shim to install, e.g. claude");
  for (const name of options.names) {
    const problem = shimNameProblem(name);
    if (problem !== undefined) throw new UsageError(`shim name "${name}" ${problem}`);
  }
  for (const pattern of options.env ?? []) {
    const problem = envPatternProblem(pattern);
    if (problem !== undefined) throw new UsageError(`--env "${pattern}": ${problem}`);
  }
}

/** Writes one argv-recording shim per name into `dir`; throws UsageError for bad input, before writing any shim. */
export async function installShims(options: InstallShimsOptions): Promise<InstalledShims> {
  checkInputs(options);
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, options.dir);
  const log = resolve(cwd, options.log ?? join(dir, "shims.jsonl"));
  const parsed = behaviourSchema.safeParse(options.behaviour ?? { kind: "script", outcome: {} });
  if (!parsed.success) {
    throw new UsageError(
      `shim behaviour: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  const behaviour = parsed.data;
  const path = options.path ?? process.env.PATH ?? "";
  await writableDir(dir, "the shim directory");
  await writableDir(dirname(log), "the log directory");
  const stateDir = join(dir, STATE_DIR_NAME);
  await mkdir(stateDir, { recursive: true });
  const tools = await findHostTools(path, dir);

  const targets = new Map<string, string>();
  if (behaviour.kind === "pass-through") {
    for (const name of options.names) {
      const target =
        behaviour.target !== undefined
          ? resolve(cwd, behaviour.target)
          : findExecutable(name, { path, exclude: [dir], cwd });
      if (target === undefined) {
        throw new UsageError(
          `pass-through: no real "${name}" on PATH outside ${dir}; install it, fix PATH, or give --target <path>`,
        );
      }
      if (!isExecutableFile(target)) {
        throw new UsageError(
          `pass-through target ${target} is not an executable file; check --target`,
        );
      }
      if (isWitnessShim(target)) {
        throw new UsageError(
          `pass-through target ${target} is a witness shim itself; point --target at the real binary`,
        );
      }
      // GNU env would read a NAME=VALUE operand as an assignment, not as the program to run.
      if (tools.envDefaultSignal !== undefined && target.includes("=")) {
        throw new UsageError(
          `pass-through target ${target} contains "="; move or link it to a path without one`,
        );
      }
      targets.set(name, target);
    }
  }

  const clock = await bootClock();
  const template = await readFile(new URL("./assets/shim.sh", import.meta.url), "utf8");
  await copyFile(new URL("./assets/record.awk", import.meta.url), join(stateDir, "record.awk"));
  await appendFile(log, "");
  const shims: InstalledShim[] = [];
  for (const name of options.names) {
    await clearCallClaims(stateDir, name);
    let mode: ShimConfig["mode"];
    if (behaviour.kind === "script") {
      mode = {
        kind: "script",
        step: await renderStep(behaviour.outcome, stateDir, `${name}.1`, cwd),
      };
    } else if (behaviour.kind === "plan") {
      const steps: RenderedStep[] = [];
      for (const [i, o] of behaviour.calls.entries())
        steps.push(await renderStep(o, stateDir, `${name}.${i + 1}`, cwd));
      mode = { kind: "plan", steps };
    } else {
      mode = { kind: "pass-through", target: targets.get(name) ?? "" };
    }
    const script = renderShim(template, {
      clock,
      name,
      log,
      stateDir,
      tools,
      stdin: options.stdin ?? "record",
      envRegex: envPatternRegex(options.env ?? DEFAULT_ENV_PATTERNS),
      mode,
      forceMkdirLock: options.forceMkdirLock ?? false,
    });
    const file = join(dir, name);
    // Atomic: a concurrent caller sees the old shim or the new one, never half of one.
    await writeFileAtomic(file, script, { mode: 0o755 });
    const target = targets.get(name);
    shims.push(target === undefined ? { name, file } : { name, file, target });
  }
  await writePlanLengths(
    stateDir,
    options.names,
    behaviour.kind === "plan" ? behaviour.calls.length : undefined,
  );
  return { dir, log, shims };
}

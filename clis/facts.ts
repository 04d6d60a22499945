// The shape of what witness knows a CLI reads and writes: files, directories, switches, trust.
import { join } from "node:path";

/** Where an instruction file sits, relative to a probe cell's layout. */
export type InstructionRoot = "workspace" | "home" | "parent" | "grandparent";

/** An instruction file the CLI is known to read: a candidate for a marker. */
export interface InstructionFile {
  at: InstructionRoot;
  path: string;
  /** When it is read, in a few words. */
  when: string;
}

/** A directory as the CLI resolves it: the first variable set, else a path under a base. */
export interface DirRule {
  /** Variables that move it, first set wins; `sub` is appended to the variable's value. */
  variables: readonly { name: string; sub?: string }[];
  /** Where it is when none is set: under HOME, or under an XDG base (itself under HOME by default). */
  fallback: { base: "HOME" | "XDG_CONFIG_HOME" | "XDG_DATA_HOME"; path: string };
}

/** A variable or flag that changes what the CLI loads, and what it does. */
export interface Switch {
  name: string;
  effect: string;
}

/** Everything witness knows about what one CLI reads and writes, as data. */
export interface CliFacts {
  /** Instruction files it is known to read (documentation; fixtures choose their own). */
  instructionFiles: readonly InstructionFile[];
  /** Its user configuration directory; null when unknown. */
  configDir: DirRule | null;
  /** The directory (or file) its sessions go to, and their layout below it; null when unknown. */
  sessions: (DirRule & { layout: string }) | null;
  /** Variables and flags that change what it loads. */
  switches: readonly Switch[];
  /** Machine-wide managed files it reads whatever its HOME (found in its code). */
  managedFiles: readonly string[];
  /** How it decides a folder is trusted, and the file that records it (relative to HOME). */
  trust: {
    how: string;
    file?: string;
    /** Where the mechanism changed across versions: what each range does (inclusive ends). */
    byVersion?: readonly { from?: string; upTo?: string; how: string }[];
  } | null;
  /**
   * What an exit code means, where its own code gives codes a meaning (its fatal errors), read
   * when a spawn ends before any model request; absent when none is known.
   */
  exitCodes?: Readonly<Record<number, string>>;
}

/** The environment a rule is resolved in (process.env or a child's). */
export type DirEnv = Readonly<Record<string, string | undefined>>;

const XDG_DEFAULT = { XDG_CONFIG_HOME: ".config", XDG_DATA_HOME: ".local/share" } as const;

/** The directory `rule` names in `env`; null when neither a variable nor HOME is set. */
export function resolveDir(rule: DirRule, env: DirEnv): string | null {
  for (const variable of rule.variables) {
    const value = env[variable.name];
    if (value) return variable.sub === undefined ? value : join(value, variable.sub);
  }
  const { base, path } = rule.fallback;
  if (base !== "HOME") {
    const xdg = env[base];
    if (xdg) return join(xdg, path);
  }
  if (!env.HOME) return null;
  return base === "HOME" ? join(env.HOME, path) : join(env.HOME, XDG_DEFAULT[base], path);
}

/** Every variable a rule reads, HOME and the XDG base included. */
export function ruleVariables(rule: DirRule): string[] {
  const base = rule.fallback.base === "HOME" ? [] : [rule.fallback.base];
  return [...rule.variables.map((v) => v.name), ...base, "HOME"];
}

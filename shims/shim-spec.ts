import { z } from "zod";

/** Environment names recorded by default: the variables the adapters read. */
export const DEFAULT_ENV_PATTERNS: readonly string[] = [
  "ANTHROPIC_*",
  "CLAUDE_*",
  "CODEX_*",
  "OPENAI_*",
  "IS_SANDBOX",
  "HOME",
];

/** Exit code of a call that arrives after every step of a plan was used. */
export const BEYOND_PLAN_EXIT_CODE = 97;

/** Exit code of a scripted shim that could not append its record to the log. */
export const LOG_FAILURE_EXIT_CODE = 125;

/** What one scripted call does: exit code and output, each output from text or a file. */
export const outcomeSchema = z
  .strictObject({
    exitCode: z.number().int().min(0).max(255).default(0),
    stdout: z.string().optional(),
    stdoutFile: z.string().optional(),
    stderr: z.string().optional(),
    stderrFile: z.string().optional(),
  })
  .refine((o) => o.stdout === undefined || o.stdoutFile === undefined, {
    message: "give stdout or stdoutFile, not both",
  })
  .refine((o) => o.stderr === undefined || o.stderrFile === undefined, {
    message: "give stderr or stderrFile, not both",
  });
/** One scripted call's exit code and output. */
export type Outcome = z.infer<typeof outcomeSchema>;
/** An outcome as written by a user, before defaults apply. */
export type OutcomeInput = z.input<typeof outcomeSchema>;

/** A plan file for `--plan`: call 1 does calls[0], call 2 does calls[1], and so on. */
export const planFileSchema = z.strictObject({ calls: z.array(outcomeSchema).min(1) });
/** A parsed plan file. */
export type PlanFile = z.infer<typeof planFileSchema>;

/** A shim's behaviour, fixed at install time. */
export const behaviourSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("script"), outcome: outcomeSchema }),
  z.strictObject({ kind: z.literal("plan"), calls: z.array(outcomeSchema).min(1) }),
  z.strictObject({ kind: z.literal("pass-through"), target: z.string().optional() }),
]);
/** A shim's behaviour: a fixed outcome, a per-call plan, or pass-through to the real binary. */
export type Behaviour = z.infer<typeof behaviourSchema>;
/** A behaviour as written by a user, before defaults apply. */
export type BehaviourInput = z.input<typeof behaviourSchema>;

/** Whether a shim reads stdin to record its size and digest. */
export const stdinModeSchema = z.enum(["record", "ignore"]);
/** `record` reads stdin (unless it is a terminal or closed); `ignore` never touches it. */
export type StdinMode = z.infer<typeof stdinModeSchema>;

/** Why a shim name is unusable, or undefined when it is fine. */
export function shimNameProblem(name: string): string | undefined {
  if (name === "") return "is empty; give a command name like claude";
  if (name.includes("/"))
    return "contains a slash; give a bare command name like claude, and the directory with --dir";
  if (name === "." || name === "..") return "is not a file name; give a command name like claude";
  if (name.startsWith(".witness"))
    return "is reserved for the shims' own state; choose another name";
  if (/[\0\n]/.test(name)) return "contains a NUL or newline byte; give a command name like claude";
  return undefined;
}

/** Why an environment selector is unusable, or undefined: a name where `*` matches any run of characters. */
export function envPatternProblem(pattern: string): string | undefined {
  return /^[A-Za-z0-9_*]+$/.test(pattern) && !/^[0-9]/.test(pattern)
    ? undefined
    : "expected a variable name where * matches anything, e.g. ANTHROPIC_*, *_TOKEN, HOME or *";
}

/** The anchored awk regular expression matching any of the selectors. */
export function envPatternRegex(patterns: readonly string[]): string {
  if (patterns.length === 0) return "";
  return `^(${patterns.map((p) => p.replaceAll("*", ".*")).join("|")})$`;
}

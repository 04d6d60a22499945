// Per-arm environment: variables a protocol sets or removes on top of the cell's own, and the
// ones it may not touch because the cell's isolation rests on them.
import { z } from "zod";

import { isSecretName } from "../../core/child-env.js";

/** Variables the cell owns: changing one would point the CLI at the operator's files or the network. */
export const PROTECTED_ENV_NAMES: readonly string[] = [
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "TMPDIR",
  "CODEX_HOME",
  "CLAUDE_CONFIG_DIR",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_NOSYSTEM",
  "GIT_DIR",
  "GIT_WORK_TREE",
];

/** Why `name` may not be set or unset by a protocol, or null when it may. */
export function protectedEnvReason(name: string): string | null {
  if (PROTECTED_ENV_NAMES.includes(name))
    return `${name} is the cell's own (its HOME, config, temp or git isolation)`;
  if (/_BASE_URL$|_API_BASE$|^OPENAI_API_BASE|_ENDPOINT$/.test(name))
    return `${name} points the CLI at a model server; the cell points it at the fake`;
  if (isSecretName(name)) return `${name} names a key or token; the cell's dummy key stays`;
  return null;
}

/**
 * Variables an arm changes for the spawned CLI, after the cell and the driver set theirs:
 * `set` overrides or adds (values may use `{{path:<root>}}`), `unset` removes (e.g. IS_SANDBOX).
 * Names are checked by `launchEnvProblems`, where the protocol can say which arm.
 */
export const launchEnvSchema = z.strictObject({
  set: z.record(z.string(), z.string()).optional(),
  unset: z.array(z.string()).optional(),
});
export type LaunchEnv = z.infer<typeof launchEnvSchema>;

/** What is wrong with an arm's variable names, each with its path below `env` (empty: nothing). */
export function launchEnvProblems(
  env: LaunchEnv | undefined,
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const check = (name: string, path: (string | number)[]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      problems.push({
        path,
        message: `expected an environment variable name; got ${JSON.stringify(name)}`,
      });
      return;
    }
    const reason = protectedEnvReason(name);
    if (reason !== null)
      problems.push({ path, message: `expected a variable the cell does not own; ${reason}` });
  };
  for (const name of Object.keys(env?.set ?? {})) check(name, ["set", name]);
  (env?.unset ?? []).forEach((name, i) => {
    check(name, ["unset", i]);
    if (env?.set !== undefined && name in env.set)
      problems.push({
        path: ["unset", i],
        message: `expected ${name} in set or in unset, not both`,
      });
  });
  return problems;
}

/** The child environment with an arm's changes applied: `set` over it, then `unset` removed. */
export function applyLaunchEnv(
  env: Readonly<Record<string, string>>,
  change: LaunchEnv | undefined,
): Record<string, string> {
  const out = { ...env, ...(change?.set ?? {}) };
  for (const name of change?.unset ?? []) delete out[name];
  return out;
}

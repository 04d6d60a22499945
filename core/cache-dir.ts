// Where witness keeps what it can rebuild: vendor CLI installs, the run ledger, the CLI's code cache.
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache directory: WITNESS_CACHE, else $XDG_CACHE_HOME/witness, else ~/.cache/witness. */
export function defaultCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (env.WITNESS_CACHE) return env.WITNESS_CACHE;
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "witness");
}

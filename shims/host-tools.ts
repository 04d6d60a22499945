import { UsageError } from "../core/errors.js";
import { runProcess } from "../core/exec.js";
import { findExecutable } from "./find-executable.js";

/** Absolute paths of the utilities a shim runs, resolved once at install so PATH games cannot break it. */
export interface HostTools {
  awk: string;
  date: string;
  cat: string;
  tee: string;
  mkfifo: string;
  mkdir: string;
  rmdir: string;
  sleep: string;
  /** Removes a call's own scratch files. */
  rm: string;
  /** The digest command: `sha256sum`, or `shasum -a 256` where only that exists. */
  sha256: readonly string[];
  /** `flock` when present; otherwise large records are serialised with a mkdir lock. */
  flock: string | undefined;
  /** `env` when it supports `--default-signal` (GNU coreutils 8.31+). */
  envDefaultSignal: string | undefined;
}

const REQUIRED = ["awk", "date", "cat", "tee", "mkfifo", "mkdir", "rmdir", "sleep", "rm"] as const;

/** Finds the host utilities on `path`, skipping the shim directory; throws UsageError naming what is missing. */
export async function findHostTools(path: string, shimDir: string): Promise<HostTools> {
  const find = (name: string) => findExecutable(name, { path, exclude: [shimDir] });
  const found: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of REQUIRED) {
    const file = find(name);
    if (file === undefined) missing.push(name);
    else found[name] = file;
  }
  const sha256sum = find("sha256sum");
  const shasum = find("shasum");
  const sha256 =
    sha256sum !== undefined
      ? [sha256sum]
      : shasum !== undefined
        ? [shasum, "-a", "256"]
        : undefined;
  if (sha256 === undefined) missing.push("sha256sum (or shasum)");
  if (missing.length > 0 || sha256 === undefined) {
    throw new UsageError(
      `shims need these POSIX utilities and they are not on PATH: ${missing.join(", ")}; install them or fix PATH`,
    );
  }
  const env = find("env");
  return {
    awk: found.awk ?? "",
    date: found.date ?? "",
    cat: found.cat ?? "",
    tee: found.tee ?? "",
    mkfifo: found.mkfifo ?? "",
    mkdir: found.mkdir ?? "",
    rmdir: found.rmdir ?? "",
    sleep: found.sleep ?? "",
    rm: found.rm ?? "",
    sha256,
    flock: find("flock"),
    envDefaultSignal: env !== undefined && (await supportsDefaultSignal(env)) ? env : undefined,
  };
}

async function supportsDefaultSignal(env: string): Promise<boolean> {
  const result = await runProcess({
    file: env,
    args: ["--default-signal=INT,QUIT", "--", env],
    env: {},
    cwd: "/",
    timeoutMs: 5000,
  });
  return result.exitCode === 0;
}

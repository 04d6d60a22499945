// Commands in a mount namespace of their own (`unshare --mount`, private propagation): what they
// mount nobody else sees. One of them runs where /etc holds planted files, a bind mount of a copy,
// so the real /etc is never written.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { type ExecResult, runProcess } from "../../core/exec.js";

// Copy /etc, lay the planted files over the copy, bind the copy over /etc, run the command.
const SCRIPT = [
  "set -e",
  "root=$1; shift",
  'cp -a /etc "$root/etc"',
  'cp -a "$root/plant/." "$root/etc/"',
  'mount --bind "$root/etc" /etc',
  'exec "$@"',
].join("\n");

/** Why a command cannot get a private mount namespace here (needs root and unshare), or null. */
export async function privateMountsUnavailable(): Promise<string | null> {
  if (process.platform !== "linux") return "a private mount namespace needs Linux";
  const probe = await runProcess({
    file: "unshare",
    args: ["--mount", "--propagation", "private", "--", "/bin/true"],
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    cwd: "/",
    timeoutMs: 10_000,
  });
  return probe.exitCode === 0
    ? null
    : `unshare --mount is not allowed here (${probe.stderr.trim() || probe.spawnError || "exit " + String(probe.exitCode)})`;
}

/**
 * Runs `file args` with `files` (absolute paths below /etc → content) planted in /etc as the
 * command alone sees it; `scratch` is an empty directory that receives the copy.
 */
export async function withPlantedEtc(
  scratch: string,
  files: Readonly<Record<string, string>>,
  command: {
    file: string;
    args: readonly string[];
    env: Record<string, string>;
    cwd: string;
    timeoutMs?: number;
  },
): Promise<ExecResult> {
  for (const [path, text] of Object.entries(files)) {
    if (!path.startsWith("/etc/")) throw new Error(`${path}: expected a path below /etc`);
    const at = join(scratch, "plant", path.slice("/etc/".length));
    await mkdir(dirname(at), { recursive: true });
    await writeFile(at, text);
  }
  await mkdir(join(scratch, "plant"), { recursive: true });
  return runInPrivateMounts({
    script: SCRIPT,
    args: [scratch, command.file, ...command.args],
    env: command.env,
    cwd: command.cwd,
    ...(command.timeoutMs === undefined ? {} : { timeoutMs: command.timeoutMs }),
  });
}

/**
 * Runs the shell `script` (its `$1…` are `args`) in a mount namespace of its own with private
 * propagation: whatever it mounts, only it and its children see.
 */
export function runInPrivateMounts(request: {
  script: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  timeoutMs?: number;
}): Promise<ExecResult> {
  return runProcess({
    file: "unshare",
    args: [
      "--mount",
      "--propagation",
      "private",
      "--",
      "/bin/sh",
      "-c",
      request.script,
      "sh",
      ...request.args,
    ],
    env: { ...request.env, PATH: request.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin" },
    cwd: request.cwd,
    timeoutMs: request.timeoutMs ?? 120_000,
  });
}

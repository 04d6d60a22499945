// `witness vendors add` killed by SIGKILL: npm (here a stand-in with a child of its own) dies
// with it, and `witness clean` removes the staging directory it left in the vendor cache.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { runProcess } from "../core/exec.js";
import { builtCli } from "../test/support/built-cli.js";
import { tempDir } from "../test/support/temp-dir.js";

const FAKE_NPM_DIR = join(import.meta.dirname, "test", "fixtures", "fake-npm");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-vendor-kill-"));
});
afterEach(async () => {
  // Only on failure: the stand-in's own child, by the pid its unique argv gives.
  for (const pid of await sleepers()) process.kill(pid, "SIGKILL");
  await cleanup();
});

// A sleep of a duration no other process on the machine uses: found in /proc by its argv.
const token = `${4000 + (process.pid % 1000)}.${Date.now() % 100_000}`;

async function sleepers(): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (argv.split("\0").includes(token)) found.push(Number(entry));
  }
  return found;
}

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("vendors add killed by SIGKILL", () => {
  it.skipIf(process.platform !== "linux")(
    "leaves no install running, and witness clean removes its staging directory",
    async () => {
      const cache = join(dir, "cache");
      const env = {
        PATH: `${FAKE_NPM_DIR}:${process.env.PATH ?? ""}`,
        HOME: dir,
        TMPDIR: dir,
        WITNESS_CACHE: cache,
        WITNESS_NO_CODE_CACHE: "1",
        npm_config_witness_fake_hang: token,
      };
      const abort = new AbortController();
      const run = runProcess({
        file: process.execPath,
        args: [builtCli(), "vendors", "add", "codex@0.171.0"],
        env,
        cwd: dir,
        timeoutMs: 60_000,
        killSignal: "SIGKILL",
        signal: abort.signal,
      });
      try {
        expect(await until(sleepers, (p) => p.length > 0, 30_000)).toHaveLength(1);
      } finally {
        abort.abort();
      }
      expect((await run).signal).toBe("SIGKILL");
      expect(await until(sleepers, (p) => p.length === 0, 10_000), "npm outlived witness").toEqual(
        [],
      );
      const staged = (await readdir(cache)).filter((n) => n.startsWith(".staging-"));
      expect(staged).toHaveLength(1);
      const clean = await runProcess({
        file: process.execPath,
        args: [builtCli(), "clean", "--out", join(dir, "records")],
        env,
        cwd: dir,
        timeoutMs: 60_000,
      });
      expect(clean.exitCode, clean.stderr).toBe(0);
      expect(clean.stdout).toContain(join(cache, staged[0] ?? ""));
      expect(await readdir(cache)).toEqual([]);
    },
    90_000,
  );
});

// Shims in separate PID namespaces (two cells, two containers) that share a shim directory have
// the same pids: a call's own state must not be keyed by its pid, or one call records the other's
// working directory and stdin.
import { createHash } from "node:crypto";
import { mkdir, open, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { run, tempDir } from "../test/support/temp-dir.js";
import { installShims } from "./install.js";
import { readShimLog } from "./read-log.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
// The shim as the first process of a PID namespace of its own: pid 1 in each.
const SHIM_AS_INIT = 'exec "$0" <"$1"';

describe("shims in separate PID namespaces sharing a directory", () => {
  it("each record the working directory and stdin of their own call", async (ctx) => {
    const probe = await run("unshare", ["--pid", "--fork", "/bin/true"]);
    if (probe.exitCode !== 0) ctx.skip(`no PID namespace here (unshare: ${probe.stderr.trim()})`);
    const s = await installShims({ dir, names: ["claude"] });
    const shim = join(dir, "claude");
    const [a, b, fifo] = [join(dir, "cwd-a"), join(dir, "cwd-b"), join(dir, "stdin-a")];
    await Promise.all([mkdir(a), mkdir(b), run("mkfifo", [fifo])]);
    const inNamespace = (cwd: string, stdin: string) =>
      run("unshare", ["--pid", "--fork", "/bin/sh", "-c", SHIM_AS_INIT, shim, stdin], { cwd });
    // A starts and waits on its stdin while B's whole call runs in the same shim directory.
    const callA = inNamespace(a, fifo);
    const writer = await open(fifo, "w");
    await new Promise((r) => setTimeout(r, 300));
    await writeFile(join(dir, "stdin-b"), "from B");
    const callB = await inNamespace(b, join(dir, "stdin-b"));
    await writer.write("from A");
    await writer.close();
    for (const call of [await callA, callB]) expect(call.exitCode, call.stderr).toBe(0);
    const { records, problems } = await readShimLog(s.log);
    expect(problems).toEqual([]);
    // The same pid in both namespaces: what made the calls collide.
    expect(records.map((r) => r.pid)).toEqual([1, 1]);
    const byCwd = Object.fromEntries(records.map((r) => [r.cwd, r.stdin]));
    expect(byCwd).toEqual({
      [a]: { bytes: 6, sha256: sha("from A") },
      [b]: { bytes: 6, sha256: sha("from B") },
    });
  });
});

// A spawn's memory cgroup: where witness's own is found, and (where this machine lets witness make
// one) the peak of a real tree that pid-init.sh started in it.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { runProcess } from "../../core/exec.js";
import { openSpawnCgroup, ownMemoryCgroup, removeStale } from "./memory-cgroup.js";
import { ASSETS_DIR } from "./netns.js";

const V1_MOUNTS = [
  "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
  "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
  "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
  "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
].join("\n");

describe("ownMemoryCgroup", () => {
  it("finds the v1 memory hierarchy's directory of this process", () => {
    const cgroup = "5:devices:/\n4:memory:/api/abc\n1:cpu:/\n0::/\n";
    expect(ownMemoryCgroup(cgroup, V1_MOUNTS)).toEqual({
      dir: "/sys/fs/cgroup/memory/api/abc",
      peakFile: "memory.max_usage_in_bytes",
      source: "cgroup-v1-memory.max_usage_in_bytes",
    });
  });

  it("finds the unified hierarchy's when no v1 hierarchy has the memory controller", () => {
    const mounts = "30 23 0:27 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate";
    expect(ownMemoryCgroup("0::/user.slice/w.scope\n", mounts)).toEqual({
      dir: "/sys/fs/cgroup/user.slice/w.scope",
      peakFile: "memory.peak",
      source: "cgroup-v2-memory.peak",
    });
  });

  it("takes a mount of a sub-tree into account, and refuses a cgroup outside it", () => {
    const mounts = "35 31 0:32 /api /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory";
    expect(ownMemoryCgroup("4:memory:/api/abc\n", mounts)?.dir).toBe("/sys/fs/cgroup/memory/abc");
    expect(ownMemoryCgroup("4:memory:/other\n", mounts)).toBeNull();
  });

  it("is null without a mounted memory hierarchy", () => {
    expect(ownMemoryCgroup("4:memory:/api\n", V1_MOUNTS.split("\n")[1] ?? "")).toBeNull();
    expect(ownMemoryCgroup("", V1_MOUNTS)).toBeNull();
  });
});

describe("a spawn's memory cgroup", () => {
  it("holds the peak of a tree pid-init.sh started in it, and is removed", async (ctx) => {
    const cgroup = await openSpawnCgroup();
    if (cgroup === null) {
      console.log("skipped: this machine gives witness no memory cgroup of its own");
      ctx.skip();
      return;
    }
    // A grandchild of the init holds 64 MB at once: only the tree's cgroup sees it.
    const hold = `${JSON.stringify(process.execPath)} -e 'Buffer.alloc(64 * 2 ** 20, 1)'`;
    const result = await runProcess({
      file: "/bin/sh",
      args: [join(ASSETS_DIR, "pid-init.sh"), "--cgroup", cgroup.procs, "/bin/sh", "-c", hold],
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(0);
    const peak = await cgroup.peak();
    expect(result.stderr).toBe("");
    expect(peak?.bytes).toBeGreaterThan(64 * 2 ** 20);
    await cgroup.dispose();
    expect(existsSync(cgroup.procs)).toBe(false);
  });
});

describe("removeStale", () => {
  it("removes the cgroups of witness processes that are gone, and nothing else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "witness-test-cg-"));
    try {
      // Above any pid_max: no such process.
      const names = ["witness-99999999-1", `witness-${process.pid}-1`, "other-1"];
      await Promise.all(names.map((n) => mkdir(join(dir, n))));
      await removeStale(dir);
      expect((await readdir(dir)).sort()).toEqual(["other-1", `witness-${process.pid}-1`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

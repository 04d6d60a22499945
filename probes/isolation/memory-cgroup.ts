// The peak memory of a spawn's whole process tree: a memory cgroup of its own, made under witness's
// own, which the PID namespace's first process joins (`echo 0 > cgroup.procs`, a shell built-in)
// before it starts the CLI, so every process of the tree is born in it. The kernel keeps the
// cgroup's high-water mark of charged memory: cgroup v2's memory.peak, v1's
// memory.max_usage_in_bytes. Charged memory is what the tree's processes allocated (anonymous
// memory, page tables, kernel memory) and the file pages they brought into the page cache; pages
// already cached by another cgroup (the runtime's binary, a vendor bundle read before) stay
// charged there, so it is not the sum of the processes' resident sets. witness reads the mark
// from the host side after the launch has exited, and removes the cgroup. Without a writable
// memory controller (no cgroup fs, not root, v2 without the controller delegated) there is none.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rmdir } from "node:fs/promises";
import { join } from "node:path";

/** Which kernel file the peak came from. */
export type PeakSource = "cgroup-v2-memory.peak" | "cgroup-v1-memory.max_usage_in_bytes";

/** One spawn's memory cgroup. */
export interface SpawnCgroup {
  /** The file the namespace's first process writes 0 into to join. */
  procs: string;
  /** The high-water mark in bytes once the tree has exited; null when it cannot be read. */
  peak(): Promise<{ bytes: number; source: PeakSource } | null>;
  /** Removes the cgroup (it is empty once the PID namespace has ended). */
  dispose(): Promise<void>;
}

interface Parent {
  dir: string;
  peakFile: string;
  source: PeakSource;
}

/** Where witness's own memory cgroup is (null: none, or not mounted where witness sees it), from /proc/self/cgroup and /proc/self/mountinfo. */
export function ownMemoryCgroup(cgroupText: string, mountinfoText: string): Parent | null {
  const lines = cgroupText.split("\n").map((l) => l.split(":"));
  const v1 = lines.find((f) => f.length >= 3 && f[1]?.split(",").includes("memory"));
  const v2 = lines.find((f) => f.length >= 3 && f[0] === "0" && f[1] === "");
  for (const m of mountinfoText.split("\n")) {
    // mountinfo: id parent dev root mountpoint options [optional...] - fstype source superoptions
    const [left, right] = m.split(" - ");
    if (left === undefined || right === undefined) continue;
    const [, , , root, point] = left.split(" ");
    const [fstype, , superOptions] = right.split(" ");
    if (root === undefined || point === undefined) continue;
    const within = (path: string) =>
      root === "/" ? path : path.startsWith(root) ? path.slice(root.length) || "/" : null;
    if (fstype === "cgroup" && v1 && superOptions?.split(",").includes("memory")) {
      const rel = within(v1.slice(2).join(":"));
      if (rel !== null)
        return {
          dir: join(point, rel),
          peakFile: "memory.max_usage_in_bytes",
          source: "cgroup-v1-memory.max_usage_in_bytes",
        };
    }
    if (fstype === "cgroup2" && v2 && !v1) {
      const rel = within(v2.slice(2).join(":"));
      if (rel !== null)
        return { dir: join(point, rel), peakFile: "memory.peak", source: "cgroup-v2-memory.peak" };
    }
  }
  return null;
}

let parent: Promise<Parent | null> | null = null;
let made = 0;

async function findParent(): Promise<Parent | null> {
  if (process.platform !== "linux") return null;
  try {
    const [cgroup, mountinfo] = await Promise.all([
      readFile("/proc/self/cgroup", "utf8"),
      readFile("/proc/self/mountinfo", "utf8"),
    ]);
    const found = ownMemoryCgroup(cgroup, mountinfo);
    if (found !== null) await removeStale(found.dir);
    return found;
  } catch {
    return null;
  }
}

/** The empty cgroups a witness killed outright left (its pid gone); a cgroup in use refuses rmdir. */
export async function removeStale(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((n) => {
    const pid = /^witness-(\d+)-\d+$/.exec(n)?.[1];
    return pid !== undefined && !existsSync(`/proc/${pid}`);
  });
  await Promise.all(stale.map((n) => rmdir(join(dir, n)).catch(() => undefined)));
}

const readBytes = async (file: string) => {
  const text = (await readFile(file, "utf8").catch(() => "")).trim();
  return /^\d+$/.test(text) ? Number(text) : null;
};

/** A memory cgroup for one spawn, or null where witness cannot make one that keeps a peak. */
export async function openSpawnCgroup(): Promise<SpawnCgroup | null> {
  parent ??= findParent();
  const p = await parent;
  if (p === null) return null;
  made += 1;
  const dir = join(p.dir, `witness-${process.pid}-${made}`);
  try {
    await mkdir(dir);
  } catch {
    return null;
  }
  // The namespace's last processes may still be on their way out when the launch has exited.
  const dispose = async () => {
    for (let i = 0; i < 10; i += 1) {
      if (
        await rmdir(dir).then(
          () => true,
          (e: NodeJS.ErrnoException) => e.code !== "EBUSY",
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // v2 shows memory.peak only where the parent hands the memory controller down.
  if ((await readBytes(join(dir, p.peakFile))) === null) {
    await dispose();
    return null;
  }
  return {
    procs: join(dir, "cgroup.procs"),
    peak: async () => {
      // Nothing charged: the first process never joined.
      const bytes = await readBytes(join(dir, p.peakFile));
      return bytes === null || bytes === 0 ? null : { bytes, source: p.source };
    },
    dispose,
  };
}

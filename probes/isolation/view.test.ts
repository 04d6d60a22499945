// The cell view's mounts as data: what is shown, in which order, read-only or not.
import { describe, expect, it } from "vitest";

import { fstabPath, outermost, packageDir, spawnDirs, viewMounts } from "./view.js";

const merged = [
  { name: "bin", kind: "link" as const },
  { name: "lib", kind: "link" as const },
];

describe("the cell view's mounts", () => {
  const lines = viewMounts(
    "/v/root",
    {
      cell: "/tmp/witness-cell-a",
      readOnly: ["/root/.cache/witness/claude-code@2.1.332", "/opt/node/bin"],
      masks: ["/etc/claude-code"],
    },
    merged,
  );
  const targets = lines.map((l) => l.split(" ")[1]);
  const options = (target: string) => lines.find((l) => l.split(" ")[1] === target)?.split(" ")[3];

  it("binds the root onto itself first, the system read-only, then /proc, /dev and a private /tmp", () => {
    expect(lines[0]).toBe("/v/root /v/root none bind,nosuid,nodev 0 0");
    expect(options("/v/root/usr")).toBe("bind,ro,nosuid,nodev");
    expect(options("/v/root/etc")).toBe("rbind,ro,nosuid,nodev");
    expect(lines).toContain("proc /v/root/proc proc nosuid,nodev,noexec 0 0");
    expect(lines).toContain("tmp /v/root/tmp tmpfs nosuid,nodev,mode=1777 0 0");
    // Only these devices of the host's /dev; the host's / itself is never bound.
    expect(targets.filter((t) => t?.startsWith("/v/root/dev/"))).toEqual([
      ...["null", "zero", "full", "random", "urandom", "tty", "pts", "shm"].map(
        (d) => `/v/root/dev/${d}`,
      ),
    ]);
    expect(lines.some((l) => l.startsWith("/ "))).toBe(false);
  });

  it("binds the cell writable and the spawn's directories read-only, after /tmp, parents first", () => {
    expect(options("/v/root/tmp/witness-cell-a")).toBe("bind,nosuid,nodev,X-mount.mkdir");
    expect(options("/v/root/root/.cache/witness/claude-code@2.1.332")).toBe(
      "bind,ro,nosuid,nodev,X-mount.mkdir",
    );
    const at = (t: string) => targets.indexOf(t);
    expect(at("/v/root/tmp")).toBeLessThan(at("/v/root/tmp/witness-cell-a"));
    expect(at("/v/root/tmp/witness-cell-a")).toBeLessThan(at("/v/root/opt/node/bin"));
  });

  it("masks last, over the read-only /etc, with an empty read-only tmpfs", () => {
    expect(lines.at(-1)).toBe(
      "witness-masked /v/root/etc/claude-code tmpfs ro,nosuid,nodev,noexec,size=4k,mode=0755,X-mount.mkdir 0 0",
    );
  });

  it("shows a split system's /bin as a read-only bind, a merged one's as its link (made in the template)", () => {
    const split = viewMounts("/r", { cell: "/c", readOnly: [], masks: [] }, [
      { name: "bin", kind: "dir" },
    ]);
    expect(split).toContain("/bin /r/bin none bind,ro,nosuid,nodev 0 0");
    expect(lines.some((l) => l.includes("/v/root/bin "))).toBe(false);
  });

  it("escapes spaces and backslashes as fstab reads them, and refuses a relative or unnormal path", () => {
    expect(fstabPath("/tmp/a b\\c\td")).toBe("/tmp/a\\040b\\134c\\011d");
    for (const cell of ["tmp/x", "/tmp/../etc", "/"])
      expect(() => viewMounts("/r", { cell, readOnly: [], masks: [] }, [])).toThrow(
        "view: expected an absolute, normal path below /",
      );
  });
});

describe("the directories a spawn runs from", () => {
  const has = (paths: string[]) => (p: string) => paths.includes(p);

  it("are the vendor entry holding the binary and the PATH directories outside the system's", () => {
    const exists = has([
      "/c/claude-code@1/witness-vendor.json",
      "/usr/bin",
      "/opt/node/bin",
      "/home/x/.cargo/bin",
    ]);
    expect(
      spawnDirs({
        bin: "/c/claude-code@1/node_modules/.bin/claude",
        path: "/usr/bin:/opt/node/bin:/bin:relative:/missing",
        exists,
      }),
    ).toEqual(["/c/claude-code@1", "/opt/node/bin"]);
    // No vendor entry around the binary: its own directory.
    expect(spawnDirs({ bin: "/x/bin/claude", path: "", exists })).toEqual(["/x/bin"]);
  });

  it("keep only the outermost of nested directories", () => {
    expect(outermost(["/a/b", "/a", "/c", "/a/b/c", "/ab"])).toEqual(["/a", "/ab", "/c"]);
  });

  it("show witness's dependencies where they were hoisted", () => {
    expect(packageDir("/repo")).toBe("/repo");
    expect(packageDir("/app/node_modules/witness")).toBe("/app/node_modules");
    expect(packageDir("/app/node_modules/@scope/witness")).toBe("/app/node_modules");
  });
});

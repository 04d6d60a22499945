import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { makeDirs } from "./make-dirs.js";

describe("makeDirs", () => {
  it("creates every missing level and accepts an existing directory", async () => {
    const root = await mkdtemp(join(tmpdir(), "witness-mkdirs-"));
    try {
      await makeDirs(join(root, "a", "b", "c"));
      await makeDirs(join(root, "a", "b", "c"));
      expect((await stat(join(root, "a", "b", "c"))).isDirectory()).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("fails under a file instead of creating anything", async () => {
    const root = await mkdtemp(join(tmpdir(), "witness-mkdirs-"));
    try {
      await writeFile(join(root, "file"), "");
      await expect(makeDirs(join(root, "file", "sub"))).rejects.toMatchObject({ code: "ENOTDIR" });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform !== "linux")(
    "fails quickly where Node's recursive mkdir would spin (under /proc)",
    async () => {
      await expect(makeDirs("/proc/witness-no-such/dir")).rejects.toMatchObject({
        code: "ENOENT",
      });
    },
  );
});

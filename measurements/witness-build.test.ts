import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { packageRoot } from "./witness-build.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-build-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function pkg(at: string, name: string): Promise<void> {
  await mkdir(at, { recursive: true });
  await writeFile(join(at, "package.json"), JSON.stringify({ name, version: "1.0.0" }));
}

describe("packageRoot", () => {
  it("finds the installed witness package, not the consumer above it that has a cli/ folder", async () => {
    const installed = join(dir, "node_modules", "witness");
    await pkg(dir, "consumer");
    await mkdir(join(dir, "cli"));
    await pkg(installed, "witness");
    await mkdir(join(installed, "dist", "measurements"), { recursive: true });
    expect(packageRoot(join(installed, "dist", "measurements"))).toBe(installed);
  });

  it("throws when no witness package.json is above the module", async () => {
    await pkg(dir, "consumer");
    expect(() => packageRoot(dir)).toThrow('no package.json named "witness"');
  });
});

// A manifest is a dotfile a pull request can carry into docs/measurements: recovery must never
// follow it out of its directory, through a symlink, or to a file its own token does not name,
// and never remove a temporary file whose content did not reach its final name.
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { tempDir } from "../test/support/temp-dir.js";
import { recoverFileSets } from "./set-recovery.js";

let root: string;
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir("witness-set-recovery-"));
  dir = join(root, "measurements");
  await mkdir(dir);
});
afterEach(() => cleanup());

// Above Linux's largest pid (2^22): never a live process.
const DEAD = "4194305";
const HEX = "0123456789ab";
const TOKEN = `${DEAD}.${HEX}`;
const MANIFEST = `.witness-set.${TOKEN}.json`;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function manifest(files: { name: string; temp: string; sha256?: string }[]): Promise<void> {
  const entries = files.map((f) => ({ sha256: sha("data\n"), ...f }));
  await writeFile(join(dir, MANIFEST), JSON.stringify({ files: entries }));
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

describe("recovering a record set from a manifest in a checkout", () => {
  it("never follows a name or temp out of its directory, and removes nothing there", async () => {
    await writeFile(join(root, "victim"), "data\n");
    await manifest([{ name: "../linked", temp: "../victim" }]);
    const recovery = await recoverFileSets(dir);
    expect(recovery.completed).toEqual([]);
    expect(recovery.kept.map((k) => k.manifest)).toEqual([join(dir, MANIFEST)]);
    expect(await readFile(join(root, "victim"), "utf8")).toBe("data\n");
    expect(await exists(join(root, "linked"))).toBe(false);
  });

  it("refuses an absolute name", async () => {
    await manifest([{ name: join(root, "abs"), temp: `.abs.${TOKEN}.part` }]);
    expect((await recoverFileSets(dir)).kept).toHaveLength(1);
    expect(await readdir(dir)).toEqual([MANIFEST]);
  });

  it("never links a temp that is a symlink (the record would point outside)", async () => {
    await writeFile(join(root, "secret"), "data\n");
    await symlink(join(root, "secret"), join(dir, `.r.md.${TOKEN}.part`));
    await manifest([{ name: "r.md", temp: `.r.md.${TOKEN}.part` }]);
    const recovery = await recoverFileSets(dir);
    expect(recovery.completed).toEqual([]);
    expect(await exists(join(dir, "r.md"))).toBe(false);
    expect(await readFile(join(root, "secret"), "utf8")).toBe("data\n");
  });

  it("never reads a manifest that is a symlink", async () => {
    const elsewhere = join(root, "elsewhere.json");
    await writeFile(join(dir, `.r.md.${TOKEN}.part`), "data\n");
    await writeFile(
      elsewhere,
      JSON.stringify({
        files: [{ name: "r.md", temp: `.r.md.${TOKEN}.part`, sha256: sha("data\n") }],
      }),
    );
    await symlink(elsewhere, join(dir, MANIFEST));
    const recovery = await recoverFileSets(dir);
    expect(recovery.completed).toEqual([]);
    expect(await exists(join(dir, "r.md"))).toBe(false);
    expect(await exists(elsewhere)).toBe(true);
  });

  it("refuses a temp that is not the name the manifest's own token gives", async () => {
    await writeFile(join(dir, ".r.md.77.aaaaaaaaaaaa.part"), "data\n");
    await manifest([{ name: "r.md", temp: ".r.md.77.aaaaaaaaaaaa.part" }]);
    expect((await recoverFileSets(dir)).kept).toHaveLength(1);
    expect(await exists(join(dir, "r.md"))).toBe(false);
    expect(await exists(join(dir, ".r.md.77.aaaaaaaaaaaa.part"))).toBe(true);
  });

  it("keeps a temp whose final name another file holds: it is the only copy", async () => {
    await writeFile(join(dir, "r.md"), "someone else's\n");
    await writeFile(join(dir, `.r.md.${TOKEN}.part`), "data\n");
    await manifest([{ name: "r.md", temp: `.r.md.${TOKEN}.part` }]);
    const recovery = await recoverFileSets(dir);
    expect(recovery.completed).toEqual([]);
    expect(await readFile(join(dir, "r.md"), "utf8")).toBe("someone else's\n");
    expect(await readFile(join(dir, `.r.md.${TOKEN}.part`), "utf8")).toBe("data\n");
  });

  it("removes no temporary file that no manifest names", async () => {
    await writeFile(join(dir, `.r.md.${TOKEN}.part`), "a file a checkout carried\n");
    expect(await recoverFileSets(dir)).toEqual({ completed: [], discarded: [], kept: [] });
    expect(await readdir(dir)).toEqual([`.r.md.${TOKEN}.part`]);
  });

  it("finishes a set its own manifest names, by content", async () => {
    await writeFile(join(dir, `.r.md.${TOKEN}.part`), "data\n");
    await manifest([{ name: "r.md", temp: `.r.md.${TOKEN}.part` }]);
    expect((await recoverFileSets(dir)).completed).toEqual([[join(dir, "r.md")]]);
    expect(await readdir(dir)).toEqual(["r.md"]);
  });

  it("does not link a temp whose content is not what the manifest recorded", async () => {
    await writeFile(join(dir, `.r.md.${TOKEN}.part`), "dat");
    await writeFile(join(dir, `.r.csv.${TOKEN}.part`), "data\n");
    await manifest([
      { name: "r.csv", temp: `.r.csv.${TOKEN}.part` },
      { name: "r.md", temp: `.r.md.${TOKEN}.part` },
    ]);
    const recovery = await recoverFileSets(dir);
    expect(recovery.completed).toEqual([]);
    expect(recovery.discarded).toHaveLength(2);
    expect(await readdir(dir)).toEqual([]);
  });
});

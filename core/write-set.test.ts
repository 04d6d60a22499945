import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "../test/support/built-cli.js";
import { tempDir } from "../test/support/temp-dir.js";
import { runProcess } from "./exec.js";
import { recoverFileSets } from "./set-recovery.js";
import { writeFilesTogether } from "./write-set.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-write-set-"));
});
afterEach(() => cleanup());

const NAMES = ["r.md", "r.csv", "r.json"];
const set = () => NAMES.map((name) => ({ path: join(dir, name), data: `content of ${name}\n` }));

// A writer that dies of SIGKILL at its `kill`-th call of `op` (a real crash: no cleanup runs).
async function crashingWriter(op: "writeFile" | "link", kill: number): Promise<void> {
  // The source itself, through tsx's loader: no build needed.
  const module = join(WITNESS_ROOT, "core", "write-set.ts");
  const tsx = join(WITNESS_ROOT, "node_modules", "tsx", "dist", "loader.mjs");
  const source = `
    const { link, writeFile } = await import("node:fs/promises");
    const { writeFilesTogether } = await import(${JSON.stringify(module)});
    let calls = 0;
    const die = () => { if (++calls === ${kill}) process.kill(process.pid, "SIGKILL"); };
    const io = {
      writeFile: async (p, d) => { if (${JSON.stringify(op)} === "writeFile") die(); await writeFile(p, d, { flag: "wx" }); },
      link: async (a, b) => { if (${JSON.stringify(op)} === "link") die(); await link(a, b); },
    };
    await writeFilesTogether(${JSON.stringify(set())}, io);`;
  const r = await runProcess({
    file: process.execPath,
    args: ["--import", pathToFileURL(tsx).href, "--input-type=module", "-e", source],
    env: {},
    cwd: dir,
    timeoutMs: 20_000,
  });
  expect(r.signal, r.stderr).toBe("SIGKILL");
}

const visible = async () => (await readdir(dir)).filter((n) => !n.startsWith(".")).sort();

describe("files written together", () => {
  it("appear all at once, leaving no temporary file", async () => {
    expect(await writeFilesTogether(set())).toBe(true);
    expect((await readdir(dir)).sort()).toEqual([...NAMES].sort());
    expect(await readFile(join(dir, "r.json"), "utf8")).toBe("content of r.json\n");
  });

  it("are not written when one name is taken, and nothing is left behind", async () => {
    await writeFile(join(dir, "r.csv"), "someone else's\n");
    expect(await writeFilesTogether(set())).toBe(false);
    expect(await readdir(dir)).toEqual(["r.csv"]);
    expect(await readFile(join(dir, "r.csv"), "utf8")).toBe("someone else's\n");
  });

  it("killed between two links: recovery links the rest, so the set is whole", async () => {
    await crashingWriter("link", 2);
    expect(await visible()).toEqual(["r.md"]);
    const recovered = await recoverFileSets(dir);
    expect(recovered.completed).toEqual([NAMES.map((n) => join(dir, n))]);
    expect((await readdir(dir)).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES)
      expect(await readFile(join(dir, name), "utf8")).toBe(`content of ${name}\n`);
  });

  it("killed while writing its temporary files: recovery clears them and no file appears", async () => {
    await crashingWriter("writeFile", 2);
    expect(await visible()).toEqual([]);
    const recovered = await recoverFileSets(dir);
    expect(recovered.completed).toEqual([]);
    expect(recovered.discarded).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it("leaves a live writer's files alone", async () => {
    const part = join(dir, `.r.md.${process.pid}.abcdef.part`);
    await writeFile(part, "in progress");
    expect(await recoverFileSets(dir)).toEqual({ completed: [], discarded: [], kept: [] });
    expect(await readdir(dir)).toEqual([`.r.md.${process.pid}.abcdef.part`]);
  });
});

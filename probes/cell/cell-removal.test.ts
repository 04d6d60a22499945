import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { runProcess } from "../../core/exec.js";
import { fixtureSchema } from "../contracts/fixture.js";
import { driverFor } from "../drivers/index.js";
import { OWNER_FILE } from "../leftovers.js";
import { createCell, removeCell } from "./cell.js";

// A CLI's children can still be writing into the cell when its removal starts (they die with the
// PID namespace a moment after the CLI): the removal must outlast them, not leave a half-removed
// cell behind.
const env = buildChildEnv({ parent: process.env });
const newCell = () =>
  createCell({
    fixture: fixtureSchema.parse({ files: [] }),
    nonce: "n0nce",
    trust: (paths) => driverFor("codex").trustWorkspace(paths),
    baseEnv: env,
  });
const chattr = (flag: string, path: string) =>
  runProcess({ file: "chattr", args: [flag, path], env, cwd: "/", timeoutMs: 10_000 });

describe("removeCell", () => {
  it("removes a cell into which another process is still writing", async () => {
    const cell = await newCell();
    const busy = join(cell.root, "home", "busy");
    mkdirSync(busy);
    for (let i = 0; i < 2000; i++) mkdirSync(join(busy, String(i)));
    // Adds up to 200 entries to `busy` while it exists (plain mkdir never re-creates a removed
    // parent), as a CLI's last writes land for a moment after its removal began.
    const writer = runProcess({
      file: "/bin/sh",
      args: [
        "-c",
        'i=0; while [ $i -lt 200 ] && mkdir "$1/w$i" 2>/dev/null; do i=$((i+1)); done',
        "writer",
        busy,
      ],
      env: buildChildEnv({ parent: process.env }),
      cwd: "/",
      timeoutMs: 20_000,
    });
    await removeCell(cell);
    await writer;
    expect(existsSync(cell.root)).toBe(false);
  });

  // An immutable file (root cannot delete it) stands for a removal cut short, as by a SIGKILL.
  it("keeps the owner file until everything else is gone, so witness clean can finish the job", async (ctx) => {
    const cell = await newCell();
    const stuck = join(cell.root, "home", "stuck");
    writeFileSync(stuck, "x");
    const set = await chattr("+i", stuck);
    if (set.exitCode !== 0) {
      ctx.skip(`chattr +i is not available here: ${set.stderr.trim() || set.spawnError}`);
      return;
    }
    try {
      await expect(removeCell(cell)).rejects.toThrow();
      expect(existsSync(join(cell.root, OWNER_FILE))).toBe(true);
    } finally {
      await chattr("-i", stuck);
      await removeCell(cell);
    }
    expect(existsSync(cell.root)).toBe(false);
  });
});

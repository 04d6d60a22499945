import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { runProcess } from "../../core/exec.js";
import { fixtureSchema } from "../contracts/fixture.js";
import { driverFor } from "../drivers/index.js";
import { createCell, removeCell } from "./cell.js";

// A CLI's children can still be writing into the cell when its removal starts (they die with the
// PID namespace a moment after the CLI): the removal must outlast them, not leave a half-removed
// cell behind.
describe("removeCell", () => {
  it("removes a cell into which another process is still writing", async () => {
    const cell = await createCell({
      fixture: fixtureSchema.parse({ files: [] }),
      nonce: "n0nce",
      trust: (paths) => driverFor("codex").trustWorkspace(paths),
      baseEnv: buildChildEnv({ parent: process.env }),
    });
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
});

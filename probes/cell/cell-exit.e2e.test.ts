// A cell handed to removeCellLater by a process that exits at once is still removed (the exit
// handler finishes it): the built module in a process of its own, since the exit is the point.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { runProcess } from "../../core/exec.js";
import { builtCli, WITNESS_ROOT } from "../../test/support/built-cli.js";

describe("removeCellLater at exit", () => {
  it("leaves no cell behind when the process exits while the cell is still being removed", async () => {
    // A process that builds a cell, hands it to removeCellLater and exits at once: the removal
    // has not finished, so the exit handler finishes it.
    const cellModule = join(WITNESS_ROOT, "dist", "probes", "cell", "cell.js");
    const source = `
      const { createCell, removeCellLater } = await import(${JSON.stringify(cellModule)});
      const cell = await createCell({
        fixture: { files: [], workspace: "outside-home", trust: false },
        nonce: "n",
        trust: async () => {},
        baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      });
      console.log(cell.root);
      removeCellLater(cell);
      process.exit(0);`;
    builtCli(); // refuses a stale dist/
    const result = await runProcess({
      file: process.execPath,
      args: ["--input-type=module", "-e", source],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmpdir() },
      cwd: tmpdir(),
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const root = result.stdout.trim();
    expect(root).toContain("witness-cell-");
    expect(existsSync(root)).toBe(false);
  });
});

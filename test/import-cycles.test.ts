// No module imports itself at run time through others: a cycle makes evaluation order decide
// which binding is still undefined when it is first read.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "./support/built-cli.js";
import { importCycles, repositoryTsFiles, runtimeImportTargets } from "./support/import-layers.js";

describe("runtime import cycles", () => {
  it("there are none in the repository", () => {
    const files = repositoryTsFiles(WITNESS_ROOT);
    expect(files).toEqual(expect.arrayContaining(["prereg/lock.ts", "vitest.config.ts"]));
    expect(importCycles(WITNESS_ROOT, files)).toEqual([]);
  });

  it("counts static, bare and dynamic imports, and not type-only ones", () => {
    const source = [
      'import { a } from "./a.js";',
      'import { type B, c } from "../b/c.js";',
      'import type { D } from "./d.js";',
      'export type { E } from "./e.js";',
      'export { f } from "./f.js";',
      'import "./g.js";',
      'const h = await import("./h.js");',
      'import { z } from "zod";',
    ].join("\n");
    expect(runtimeImportTargets("x/y.ts", source)).toEqual([
      "x/a.ts",
      "b/c.ts",
      "x/f.ts",
      "x/g.ts",
      "x/h.ts",
    ]);
  });

  describe("on a planted cycle", () => {
    const dir = mkdtempSync(join(tmpdir(), "witness-cycles-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("names every file on it, and ignores a cycle of types alone", () => {
      writeFileSync(join(dir, "a.ts"), 'import { b } from "./b.js";\nexport const a = b;\n');
      writeFileSync(join(dir, "b.ts"), 'import type { A } from "./a.js";\nexport const b = 1;\n');
      expect(importCycles(dir, ["a.ts", "b.ts"])).toEqual([]);
      writeFileSync(join(dir, "b.ts"), 'export const b = () => import("./c.js");\n');
      writeFileSync(join(dir, "c.ts"), 'export { a } from "./a.js";\n');
      expect(importCycles(dir, ["a.ts", "b.ts", "c.ts"])).toEqual([["a.ts", "b.ts", "c.ts"]]);
    });
  });
});

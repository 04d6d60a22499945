// Each folder's README lists its files: a new file is named where a reader looks for it, and a
// removed or renamed one leaves no row behind.
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "./support/built-cli.js";
import { documentedFolders, readmeGaps } from "./support/readme-files.js";

describe("folder READMEs", () => {
  const folders = documentedFolders(WITNESS_ROOT);

  it("cover every top-level folder that holds code", () => {
    expect(folders).toEqual(expect.arrayContaining(["core", "clis", "probes", "test", "cli"]));
  });

  it.each(folders)("%s/README.md names each of its source files and only files that exist", (f) => {
    expect(readmeGaps(WITNESS_ROOT, f)).toEqual({ unnamed: [], missing: [] });
  });

  describe("on a planted gap", () => {
    const copy = mkdtempSync(join(tmpdir(), "witness-readmes-"));
    afterAll(() => rmSync(copy, { recursive: true, force: true }));
    for (const folder of ["prereg", "core", "probes"])
      cpSync(join(WITNESS_ROOT, folder), join(copy, folder), { recursive: true });

    it("names the new file no row lists, and the row whose file is gone", () => {
      expect(readmeGaps(copy, "prereg")).toEqual({ unnamed: [], missing: [] });
      writeFileSync(join(copy, "prereg", "new-rule.ts"), "export {};\n");
      // A pattern with nothing literal but its extension names no file.
      appendFileSync(join(copy, "prereg", "README.md"), "\nEach `<name>.ts` is one idea.\n");
      writeFileSync(join(copy, "prereg", "new-rule.test.ts"), "export {};\n");
      rmSync(join(copy, "prereg", "lock-rules.ts"));
      expect(readmeGaps(copy, "prereg")).toEqual({
        unnamed: ["new-rule.ts"],
        missing: ["lock-rules.ts"],
      });
    });
  });
});

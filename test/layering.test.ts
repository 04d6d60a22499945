// The layers each folder's README promises, checked on every import.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { WITNESS_ROOT } from "./support/built-cli.js";
import { folderRules, importTargets, layerViolations, parseRule } from "./support/import-layers.js";

describe("the layering rule", () => {
  it("holds for every import in the repository", () => {
    expect(layerViolations(WITNESS_ROOT)).toEqual([]);
  });

  it("has a rule for every folder that holds code, and core imports nothing", () => {
    const rules = folderRules(WITNESS_ROOT);
    expect([...rules.keys()]).toEqual(expect.arrayContaining(["core", "orchestrator", "probes"]));
    for (const [folder, rule] of rules) expect(rule, `${folder}/README.md`).not.toBeNull();
    expect(rules.get("core")?.code).toEqual([]);
  });

  describe("on a planted bad import", () => {
    const copy = mkdtempSync(join(tmpdir(), "witness-layers-"));
    afterAll(() => rmSync(copy, { recursive: true, force: true }));
    for (const folder of ["core", "orchestrator", "README.md"]) {
      cpSync(join(WITNESS_ROOT, folder), join(copy, folder), { recursive: true });
    }

    it("fails and names the file and the target", () => {
      expect(layerViolations(copy)).toEqual([]);
      writeFileSync(
        join(copy, "core", "bad.ts"),
        'import { planLaunch } from "../orchestrator/plan/plan-launch.js";\n',
      );
      expect(layerViolations(copy)).toEqual([
        { file: "core/bad.ts", target: "orchestrator/plan/plan-launch.js", allowed: ["core"] },
      ]);
    });
  });

  it("reads the README line, test extras and `every folder`", () => {
    expect(
      parseRule(
        "x",
        "# x\n\nMay import: `core/`, `probes/contracts/`.\nTests may also import: `probes/`.\n",
      ),
    ).toEqual({
      folder: "x",
      code: ["core", "probes/contracts"],
      tests: ["probes"],
    });
    expect(parseRule("cli", "May import: every folder.")).toEqual({
      folder: "cli",
      code: null,
      tests: [],
    });
    expect(parseRule("core", "May import: nothing.")).toEqual({
      folder: "core",
      code: [],
      tests: [],
    });
    expect(parseRule("y", "no rule here")).toBeNull();
  });

  it("finds static, dynamic and side-effect imports", () => {
    const source =
      'import { a } from "../core/a.js";\nconst b = await import("../probes/b.js");\nimport "./c.js";\nimport x from "node:fs";\n';
    expect(importTargets("shims/s.ts", source)).toEqual(["core/a.js", "probes/b.js", "shims/c.js"]);
  });
});

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { tempWorkspace } from "../../test/support/temp-workspace.js";
import { planLaunch } from "../plan/plan-launch.js";
import type { AmbientContext } from "../spec/schemas.js";

type Repo = ReturnType<typeof tempWorkspace>;

function plan(value: AmbientContext, plant: (repo: Repo) => void = () => undefined) {
  const repo = tempWorkspace();
  plant(repo);
  return planLaunch({
    node: { id: "n", adapter: "kimi", prompt: "-go", ambientContext: value },
    cwd: repo.root,
    env: { HOME: repo.home },
  }).then((p) => ({ p, repo }));
}

describe("the Kimi Code rendering", () => {
  it("gives the prompt as -p's value (Kimi reads none from stdin) and warns that -p runs every call", async () => {
    const { p } = await plan("all");
    expect([p.file, p.args, p.stdin, p.homeOverlay]).toEqual([
      "kimi",
      ["-p", "-go"],
      undefined,
      undefined,
    ]);
    expect(p.diagnostics.map((d) => d.code)).toContain("kimi-prompt-mode-auto");
  });

  it("workspace moves KIMI_CODE_HOME to a copy without AGENTS.md, skills and SYSTEM.md", async () => {
    const { p, repo } = await plan("workspace");
    expect(p.homeOverlay).toEqual({
      variable: "KIMI_CODE_HOME",
      source: join(repo.home, ".kimi-code"),
      exclude: ["AGENTS.md", "skills", "SYSTEM.md"],
    });
  });

  it("workspace is refused while ~/.agents/skills holds a skill, and not for an empty one", async () => {
    const skills = (r: Repo) => join(r.home, ".agents", "skills");
    const empty = await plan("workspace", (r) => mkdirSync(skills(r), { recursive: true }));
    expect(empty.p.homeOverlay?.variable).toBe("KIMI_CODE_HOME");
    const plant = (r: Repo) => {
      mkdirSync(join(skills(r), "s"), { recursive: true });
      writeFileSync(join(skills(r), "s", "SKILL.md"), "---\nname: s\ndescription: d\n---\n");
    };
    await expect(plan("workspace", plant)).rejects.toThrow(
      /refused \(ambient-context-refused\).*\.agents\/skills/,
    );
  });

  it("workspace is refused while ~/.agents/AGENTS.md would load past KIMI_CODE_HOME", async () => {
    const plant = (r: Repo) => {
      mkdirSync(join(r.home, ".agents"), { recursive: true });
      writeFileSync(join(r.home, ".agents", "AGENTS.md"), "rule\n");
    };
    await expect(plan("workspace", plant)).rejects.toThrow(
      /refused \(ambient-context-refused\).*\.agents\/AGENTS\.md/,
    );
  });

  it("none and operator are refused by the support table", async () => {
    await expect(plan("none")).rejects.toThrow(/refused/);
    await expect(plan("operator")).rejects.toThrow(/refused/);
  });
});

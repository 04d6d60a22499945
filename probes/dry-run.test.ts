// What a spawn would launch, on paper: an orchestrator launch shows its own command and variables.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { probeSpecSchema } from "./contracts/probe-spec.js";
import { drySpawn } from "./dry-run.js";

describe("drySpawn", () => {
  it("shows an orchestrator's command and its own variables, not the CLI's argv", async () => {
    const spec = probeSpecSchema.parse({
      cli: { name: "claude-code", version: "2.1.332" },
      launch: {
        orchestrator: {
          command: ["node", "run-query.mjs", "user"],
          clis: ["claude-code"],
          env: { set: { WITNESS_DRY: "1" } },
        },
      },
    });
    const cacheDir = mkdtempSync(join(tmpdir(), "witness-dry-"));
    const dry = await drySpawn(spec, { cacheDir });
    rmSync(cacheDir, { recursive: true, force: true });
    expect(dry.file).toBe("node");
    expect(dry.args).toEqual(["run-query.mjs", "user"]);
    expect(dry.env.WITNESS_DRY).toBe("1");
  });

  it("leaves Claude Code's flag-service switch out when the fixture sets flags, and only then", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "witness-dry-"));
    const spec = (fixture: object) =>
      probeSpecSchema.parse({
        cli: { name: "claude-code", version: "2.1.332" },
        fixture,
        launch: { argv: ["-p", "hi"] },
      });
    const flagged = await drySpawn(spec({ featureFlags: { tengu_moss_anchor: true } }), {
      cacheDir,
    });
    const plain = await drySpawn(spec({}), { cacheDir });
    rmSync(cacheDir, { recursive: true, force: true });
    expect(flagged.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBeUndefined();
    expect(plain.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBe("1");
  });

  it("refuses flags for a CLI whose flag cache witness does not know, and on an orchestrator launch", () => {
    const codex = probeSpecSchema.safeParse({
      cli: { name: "codex", version: "0.171.0" },
      fixture: { featureFlags: { f: true } },
      launch: { argv: ["exec", "hi"] },
    });
    expect(codex.error?.issues[0]).toMatchObject({
      path: ["fixture", "featureFlags"],
      message: expect.stringContaining("codex has none") as unknown,
    });
    const orchestrated = probeSpecSchema.safeParse({
      cli: { name: "claude-code", version: "2.1.332" },
      fixture: { featureFlags: { f: true } },
      launch: { orchestrator: { command: ["node", "x.mjs"], clis: ["claude-code"] } },
    });
    expect(orchestrated.error?.issues[0]?.message).toContain("orchestrator");
  });
});

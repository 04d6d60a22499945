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
});

import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildChildEnv } from "../core/child-env.js";
import { WITNESS_CLI } from "../probes/contracts/placeholders.js";
import { builtCli, runBuiltCli, WITNESS_ROOT } from "../test/support/built-cli.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "witness-main-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("the bundled witness command", () => {
  it("prints its own package's version, not the one of the project it runs in", async () => {
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "other", version: "9.9.9" }));
    const own = (
      JSON.parse(readFileSync(join(WITNESS_ROOT, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    const result = await runBuiltCli(["--version"], {
      cwd: dir,
      env: buildChildEnv({ parent: process.env, set: { HOME: dir } }),
      timeoutMs: 30_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe(own);
  });

  it("is the file a protocol's {{path:witness-cli}} names", () => {
    expect(WITNESS_CLI).toBe(builtCli());
    expect(existsSync(WITNESS_CLI)).toBe(true);
  });
});

import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { buildChildEnv } from "../../core/child-env.js";
import { WITNESS_ROOT as ROOT } from "../../test/support/built-cli.js";
import { runCliInProcess } from "../../test/support/in-process-cli.js";
import { probeInputFromArgs } from "./probe.js";

async function witness(...args: string[]) {
  return runCliInProcess({
    args,
    cwd: ROOT,
    env: buildChildEnv({
      parent: process.env,
      set: { WITNESS_CACHE: join(ROOT, "node_modules", ".witness-test-empty-cache") },
    }),
  });
}

describe("witness probe and witness vendors, argv to options", () => {
  it("maps flags and the arguments after -- to the probe input", () => {
    const input = probeInputFromArgs(
      {
        cli: "claude-code@2.1.332",
        fixture: "f.yaml",
        "accept-loaded-user-config": false,
        orchestrator: false,
        json: true,
        keep: false,
        timeout: 5,
        cache: undefined,
        "--": ["-p", "hi", 3],
      },
      "/w",
    );
    expect(input).toEqual({
      cli: "claude-code@2.1.332",
      fixture: "f.yaml",
      acceptLoadedUserConfig: false,
      argv: ["-p", "hi", "3"],
      timeoutMs: 5000,
      cwd: "/w",
    });
  });

  it("passes --stdin through with raw arguments", () => {
    const input = probeInputFromArgs(
      {
        cli: "pi@0.73.1",
        stdin: "-starts with a dash",
        "accept-loaded-user-config": false,
        orchestrator: false,
        json: false,
        keep: false,
        timeout: 5,
        cache: undefined,
        "--": ["-p"],
      },
      "/w",
    );
    expect(input).toMatchObject({ cli: "pi@0.73.1", argv: ["-p"], stdin: "-starts with a dash" });
  });
});

describe("witness probe --orchestrator, argv to spec", () => {
  it("maps --orchestrator, --package and --max-spawns to the probe input", () => {
    const input = probeInputFromArgs(
      {
        cli: "claude-code@2.1.332",
        "accept-loaded-user-config": false,
        orchestrator: true,
        package: ["@anthropic-ai/claude-agent-sdk@0.3.332"],
        "max-spawns": 3,
        json: false,
        keep: false,
        timeout: 5,
        cache: undefined,
        "--": ["node", "run.mjs"],
      },
      "/w",
    );
    expect(input).toMatchObject({
      orchestrator: true,
      packages: ["@anthropic-ai/claude-agent-sdk@0.3.332"],
      maxSpawns: 3,
      argv: ["node", "run.mjs"],
    });
  });

  it("plants a script the command names in the workspace and runs it by its base name", async () => {
    const { loadProbeSpec } = await import("../../probes/probe-input.js");
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "witness-orch-"));
    writeFileSync(join(dir, "run.mjs"), "console.log(1);\n");
    const spec = await loadProbeSpec({
      cli: "claude-code@2.1.332",
      orchestrator: true,
      argv: ["node", "run.mjs", "user"],
      cwd: dir,
    });
    expect(spec.launch).toEqual({
      orchestrator: { command: ["node", "run.mjs", "user"], clis: ["claude-code"] },
    });
    expect(spec.fixture.files).toEqual([
      { at: "workspace", path: "run.mjs", content: "console.log(1);\n" },
    ]);
    // --env reaches the orchestrator's own environment; --trace-files is refused with it.
    const withEnv = await loadProbeSpec({
      cli: "claude-code@2.1.332",
      orchestrator: true,
      argv: ["node", "run.mjs"],
      env: ["MODE=strict"],
      cwd: dir,
    });
    expect(withEnv.launch).toMatchObject({ orchestrator: { env: { set: { MODE: "strict" } } } });
    const traced = loadProbeSpec({
      cli: "claude-code@2.1.332",
      orchestrator: true,
      traceFiles: true,
      argv: ["node", "run.mjs"],
      cwd: dir,
    });
    await expect(traced).rejects.toThrow("--trace-files traces one CLI spawn");
  });

  it("exits 2 naming a package pin that is not exact and --package without --orchestrator", async () => {
    const loose = await witness(
      "probe",
      "--cli",
      "claude-code@2.1.332",
      "--orchestrator",
      "--package",
      "sdk@^1",
      "--",
      "node",
      "x.mjs",
    );
    expect(loose.exitCode).toBe(2);
    expect(loose.stderr).toContain(
      "launch.orchestrator.packages.0: expected <package>@<exact version>",
    );
    const stray = await witness(
      "probe",
      "--cli",
      "claude-code@2.1.332",
      "--package",
      "sdk@1.0.0",
      "--",
      "-p",
    );
    expect(stray.exitCode).toBe(2);
    expect(stray.stderr).toContain("--package goes with --orchestrator");
  });
});

describe("witness probe and vendors path refusing bad input (in process)", () => {
  it("exits 2 with the accepted form for a bad CLI reference, without a stack trace", async () => {
    const result = await witness("probe", "--cli", "claude-code@latest", "--", "-p", "x");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^witness: --cli "claude-code@latest": expected an exact version like 2.1.332/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 when vendors path names a version that is not installed", async () => {
    const result = await witness("vendors", "path", "codex@0.0.1");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "codex@0.0.1 is not installed; run `witness vendors add codex@0.0.1`",
    );
  });

  it("exits 2 naming the fixture file and field when the fixture is invalid", async () => {
    const fixture = join(ROOT, "probes", "test", "fixtures", "probe-input", "bad-fixture.yaml");
    const result = await witness(
      "probe",
      "--cli",
      "codex@0.171.0",
      "--fixture",
      fixture,
      "--",
      "exec",
      "go",
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `${fixture}: files.0.path: expected a path without '.' or '..' segments`,
    );
  });
});

describe("witness probe --env and --replay", () => {
  it("passes every --env flag on, the second one refused here", async () => {
    const run = await witness(
      "probe",
      "--cli",
      "codex@0.171.0",
      "--env",
      "A=1",
      "--env",
      "MY_TOKEN=x",
      "--",
      "exec",
    );
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--env "MY_TOKEN=x": expected a variable the cell does not own');
  });

  it("exits 2 naming the flag for an --env the cell owns", async () => {
    const run = await witness("probe", "--cli", "codex@0.171.0", "--env", "HOME=/x", "--", "exec");
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--env "HOME=/x": expected a variable the cell does not own');
  });

  it("exits 2 naming the shim log and line that is not a recorded call", async () => {
    const log = join(ROOT, "shims", "test", "fixtures", "replay", "bad-line.jsonl");
    const run = await witness("probe", "--cli", "claude-code@2.1.332", "--replay", log);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/bad-line\.jsonl: line 2: expected a recorded call/);
    expect(run.stderr).not.toContain("    at ");
  });

  it("exits 2 for --call without --replay", async () => {
    const run = await witness("probe", "--cli", "claude-code@2.1.332", "--call", "2", "--", "-p");
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("--call goes with --replay");
  });
});

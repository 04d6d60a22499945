// A managed CLAUDE.md on the machine reaches the real Claude Code whatever the cell does, and
// `managed: mask` keeps it out. The file is planted in a private copy of /etc that only the
// witness under test sees (test/support/planted-etc.ts): the real /etc is never written.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { PINNED } from "../clis/pinned.js";
import { builtCli } from "../test/support/built-cli.js";
import { liveClis } from "../test/support/live-clis.js";
import { privateMountsUnavailable, withPlantedEtc } from "../test/support/planted-etc.js";
import { tempDir } from "../test/support/temp-dir.js";
import type { Observation } from "./contracts/observation.js";
import { containment } from "./isolation/contain.js";

const clis = liveClis([PINNED["claude-code"]], "managed configuration");
beforeAll(() => clis.install(), 600_000);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("witness-managed-live-"));
});
afterEach(() => cleanup());

const MANAGED = "/etc/claude-code/CLAUDE.md";

// `witness probe` of `-p hi` under a /etc holding a managed CLAUDE.md with `marker`: the
// observation and every request body the fake model received (read from the kept cell).
async function probeWithManagedMemory(mode: "record" | "mask", marker: string) {
  const fixture = join(dir, `${mode}.yaml`);
  await writeFile(fixture, `managed: ${mode}\n`);
  const scratch = join(dir, `etc-${mode}`);
  await mkdir(scratch);
  const ref = PINNED["claude-code"];
  const result = await withPlantedEtc(
    scratch,
    { [MANAGED]: `# Managed memory\n\n${marker}\n` },
    {
      file: process.execPath,
      args: [
        builtCli(),
        "probe",
        "--cli",
        `${ref.name}@${ref.version}`,
        "--fixture",
        fixture,
        "--cache",
        clis.cacheDir,
        "--keep",
        "--json",
        "--",
        "-p",
        "hi",
      ],
      env: { HOME: dir, PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: dir, LANG: "C.UTF-8" },
      cwd: dir,
    },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  const kept = /cell kept: (.+)/.exec(result.stderr)?.[1];
  expect(kept, result.stderr).toBeDefined();
  const requests = await readFile(join(kept ?? "", "requests.json"), "utf8");
  await rm(kept ?? "", { recursive: true, force: true });
  return { observation: JSON.parse(result.stdout) as Observation, requests };
}

describe("managed configuration on the machine", () => {
  it("live: a managed CLAUDE.md reaches Claude Code under managed: record, and not under mask", async (ctx) => {
    clis.need(ctx, "claude-code");
    const unavailable = await privateMountsUnavailable();
    if (unavailable !== null) ctx.skip(unavailable);
    if ((await containment()).kind !== "pidns")
      ctx.skip("no PID namespace here, so no private mount namespace to mask in");
    const before = existsSync(MANAGED);
    const marker = `MANAGED-MEMORY-${randomUUID()}`;

    const recorded = await probeWithManagedMemory("record", marker);
    expect(recorded.requests).toContain(marker);
    expect(recorded.observation.managedFiles).toContainEqual({ path: MANAGED, present: true });
    expect(recorded.observation.managedMasked).toBeUndefined();

    const masked = await probeWithManagedMemory("mask", marker);
    expect(masked.observation.faults).toEqual([]);
    expect(masked.requests).not.toContain(marker);
    expect(masked.observation.managedFiles).toContainEqual({ path: MANAGED, present: true });
    expect(masked.observation.managedMasked).toEqual(["/etc/claude-code"]);

    // The real /etc is as it was.
    expect(existsSync(MANAGED)).toBe(before);
  }, 240_000);
});
